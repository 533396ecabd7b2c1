"""The store's sessions (tuner/store/sessions.py): which generations a filter selects, their
conversations and their reviews, as its docstring states the contract, once against every backend."""

from __future__ import annotations

from datetime import datetime

import pytest
import storekit as kit

from tuner.errors import InputError, NotFoundError
from tuner.store import Store
from tuner.store import sessions as ss

K1, K2, K3, K4 = ("sha256:" + c * 64 for c in "1234")


@pytest.fixture
def store(store_url):
    s = Store.open(store_url)
    kit.save_prompt(s)
    yield s
    s.close()


@pytest.fixture
def recorded(store):
    """Run a: K1 pass, K2 fail, K3 an infra failure with no answer, K4 pass (queries). Run b (a
    re-grade, recorded later) holds K1 again, now failing, and another model's run holds nothing."""
    a = kit.start(store, samples=4)
    store.record_results(
        a,
        [
            kit.result(sample=0, key=K1),
            kit.result(sample=1, key=K2, outcome="fail"),
            kit.result(sample=2, key=K3, outcome="infra", output=None),
            kit.result("001-queries/001-q", category="queries", key=K4),
            kit.result(sample=3, key=None),
        ],
    )  # no response key: not a session
    b = kit.start(store, model="sim/sloppy", samples=4, offset=0, set_name="regrade", suite="python")
    store.record_results(b, [kit.result(sample=0, key=K1, outcome="fail")])
    return a, b


def keys(page) -> list[str]:
    return [s.key for s in (page.items if hasattr(page, "items") else page)]


def test_a_generation_is_one_session_shown_through_its_newest_answer(store, recorded):
    a, b = recorded
    every = ss.iter_sessions(store)
    assert keys(every) == [K1, K4, K2]  # newest result row first; K3 holds no answer
    assert every[0].run_id == b and every[0].outcome == "fail" and every[0].model == "sim/sloppy"
    assert ss.count_sessions(store) == 3
    # Within run a, the later re-grade does not hide its own row of K1.
    mine = ss.iter_sessions(store, ss.SessionFilter(run=a[7:19]))
    assert keys(mine) == [K4, K2, K1] and {s.run_id for s in mine} == {a}
    assert mine[0].tokens == 15 and mine[0].title == "001-queries/001-q · sim/careful · sample 0"


@pytest.mark.parametrize(
    ("filt", "want"),
    [
        ({"model": "sim/careful"}, [K4, K2]),
        ({"category": "queries"}, [K4]),
        ({"eval": "005-actions/001-a"}, [K1, K2]),
        ({"outcome": "fail"}, [K1, K2]),
        ({"outcome": "infra"}, []),
        ({"status": "needs_review"}, [K1, K4, K2]),
        ({"keys": (K2, K4)}, [K4, K2]),
        ({"keys": ()}, []),
    ],
)
def test_filters_narrow_and_list_iter_count_agree(store, recorded, filt, want):
    f = ss.SessionFilter(**filt)
    assert keys(ss.iter_sessions(store, f)) == want
    assert ss.count_sessions(store, f) == len(want)
    assert keys(ss.list_sessions(store, f, limit=50)) == want


def test_pages_say_whether_more_follow(store, recorded):
    first = ss.list_sessions(store, limit=2)
    second = ss.list_sessions(store, limit=2, offset=2)
    assert keys(first) == [K1, K4] and first.has_more and keys(second) == [K2] and not second.has_more
    assert keys(ss.iter_sessions(store, limit=1)) == [K1]
    with pytest.raises(InputError, match="limit must be at least 1"):
        ss.list_sessions(store, limit=0)


def test_reviews_follow_the_generation_and_filter_it(store, recorded):
    assert ss.session_labels(store, [K1, K2]) == {K1: ss.SessionLabel(), K2: ss.SessionLabel()}
    when = datetime(2026, 11, 27, 12, 0)

    def golden(key, label):
        return label.model_copy(
            update={
                "eval_status": "golden",
                "eval_ready": True,
                "eval_tags": ["t1", "x.y"],
                "eval_notes": f"seen {key[-2:]}",
            }
        )

    assert ss.update_labels(store, [K1, K2, K1], golden, when) == 2
    got = ss.session_labels(store, [K2, K4])
    assert list(got) == [K2, K4] and got[K2].eval_status == "golden" and got[K2].eval_tags == ["t1", "x.y"]
    assert got[K2].reviewed_at == when and got[K2].eval_notes == "seen 22" and got[K4] == ss.SessionLabel()
    assert keys(ss.iter_sessions(store, ss.SessionFilter(status="golden"))) == [K1, K2]
    assert keys(ss.iter_sessions(store, ss.SessionFilter(tag="t1", ready=True))) == [K1, K2]
    assert keys(ss.iter_sessions(store, ss.SessionFilter(tag="t"))) == []  # a tag matches whole
    assert keys(ss.iter_sessions(store, ss.SessionFilter(ready=False))) == [K4]
    assert keys(ss.iter_sessions(store, ss.SessionFilter(status="needs_review"))) == [K4]
    assert ss.iter_sessions(store, ss.SessionFilter(status="golden"))[0].label.eval_notes == "seen 11"


def test_a_review_of_an_unknown_session_or_a_failing_edit_writes_nothing(store, recorded):
    def edit(key, label):
        return label.model_copy(update={"eval_status": "correct"})

    with pytest.raises(NotFoundError, match="unknown session"):
        ss.update_labels(store, [K1, K3], edit, datetime(2026, 1, 1))  # K3 holds no answer

    def refuse(key, label):
        if key == K2:
            raise InputError("no")
        return edit(key, label)

    with pytest.raises(InputError):
        ss.update_labels(store, [K1, K2], refuse, datetime(2026, 1, 1))
    assert ss.session_labels(store, [K1]) == {K1: ss.SessionLabel()}
    assert ss.update_labels(store, [], edit, datetime(2026, 1, 1)) == 0


def test_keys_from_prefixes(store, recorded):
    assert ss.resolve_keys(store, [K1[7:20], K2, K1]) == [K1, K2]
    with pytest.raises(NotFoundError, match="unknown session"):
        ss.resolve_keys(store, ["abcdef"])
    with pytest.raises(NotFoundError):
        ss.resolve_keys(store, [K3])  # no answer recorded
    with pytest.raises(InputError, match="not a session key"):
        ss.resolve_keys(store, ["xyz"])
    a, _ = recorded
    store.record_results(a, [kit.result(sample=5, key="sha256:" + "1" * 63 + "0")])
    with pytest.raises(InputError, match="ambiguous"):
        ss.resolve_keys(store, ["1111111"])


def test_answer_parts_resolve_the_system_prompt(store, recorded):
    session = ss.iter_sessions(store, ss.SessionFilter(keys=(K4,)))[0]
    parts = ss.answer_parts(store, [session.result_id, 10**9])
    assert list(parts) == [session.result_id]
    p = parts[session.result_id]
    assert p["messages"] == [{"role": "system", "content": kit.SYSTEM}, {"role": "user", "content": "task"}]
    assert (p["output"], p["tool_calls"], p["reasoning"], p["turns"]) == ("ok", None, None, None)


def test_a_bad_tag_is_refused_by_the_filter():
    with pytest.raises(ValueError, match="is not a tag"):
        ss.SessionFilter(tag='a"b')
