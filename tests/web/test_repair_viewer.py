"""The viewer shows a repair loop's exchange turn by turn, each turn with its failed step."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def test_session_page_shows_each_turn_and_its_failed_step(viewer, store):
    from tuner.store import ResultRecord

    run_id = store.runs()[0].id
    base = store.results(run_id)[0]
    feedback = "Your answer failed the `tests` step. Its output:\n\n```\ntest_basic_words: AssertionError\n```"
    messages = [
        base.messages[0],
        {"role": "user", "content": "Write slugify."},
        {"role": "assistant", "content": "# Files\n\nfirst try"},
        {"role": "user", "content": feedback},
    ]
    turns = [
        {"turn": 1, "outcome": "fail", "failed_step": "tests", "attempts": 1, "feedback": feedback},
        {"turn": 2, "outcome": "pass", "failed_step": None, "attempts": 1},
    ]
    key = "sha256:" + "cd" * 32
    store.record_result(
        run_id,
        ResultRecord(
            eval_id=base.eval_id,
            category=base.category,
            sample_index=98,
            outcome="pass",
            output="# Files\n\nsecond try",
            response_key=key,
            messages=messages,
            pass_turn=2,
            turns=turns,
        ),
    )
    page = viewer.get(f"/sessions/{key[7:19]}")
    assert page.status_code == 200
    text = page.text
    assert "Repair loop: 2 turn(s)" in text
    first, second = text.index('data-turn="1"'), text.index('data-turn="2"')
    assert "first try" in text[: first + 400] and text.index("first try") < text.index("test_basic_words") < second
    assert "turn 1: fail, failed step <b>tests</b>" in text and "turn 2: pass" in text
    assert 'data-feedback="1"' in text and "second try" in text[second:]

    sample = viewer.get(f"/runs/{run_id}/evals/{base.eval_id}")
    assert sample.status_code == 200
    block = sample.text[sample.text.index('id="sample-98"') :]
    assert "data-sample-turns" in block[:3000] and "at tests" in block[:3000]
