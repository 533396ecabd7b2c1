import pytest

from app.lru import LRUCache


def test_holds_exactly_capacity():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert len(cache) == 2
    assert cache.get("a") == 1
    assert cache.get("b") == 2


def test_evicts_least_recently_used():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.get("a")
    cache.put("c", 3)
    assert "b" not in cache
    assert cache.keys() == ["a", "c"]


def test_get_default():
    cache = LRUCache(1)
    assert cache.get("missing") is None
    assert cache.get("missing", 7) == 7


def test_update_does_not_evict_and_refreshes():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    assert len(cache) == 2
    assert cache.keys() == ["b", "a"]
    cache.put("c", 3)
    assert cache.keys() == ["a", "c"]
    assert cache.get("a") == 10


def test_contains_is_not_a_use():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert "a" in cache
    cache.put("c", 3)
    assert "a" not in cache
    assert cache.keys() == ["b", "c"]


def test_keys_is_a_new_list():
    cache = LRUCache(3)
    cache.put(1, "x")
    keys = cache.keys()
    keys.append(99)
    assert cache.keys() == [1]


def test_capacity_one():
    cache = LRUCache(1)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.keys() == ["b"]


def test_instances_are_independent():
    first, second = LRUCache(2), LRUCache(2)
    first.put("a", 1)
    assert len(second) == 0
    assert "a" not in second


@pytest.mark.parametrize("capacity", [0, -1])
def test_bad_capacity_raises(capacity):
    with pytest.raises(ValueError):
        LRUCache(capacity)
