import dataclasses

import pytest

from app.inventory import Inventory, Item


def test_item_fields_and_defaults():
    item = Item("A-1", "bolt")
    assert dataclasses.is_dataclass(item)
    assert [f.name for f in dataclasses.fields(Item)] == ["sku", "name", "quantity", "tags"]
    assert item.quantity == 0
    assert item.tags == []


def test_items_do_not_share_tags():
    first, second = Item("A-1", "bolt"), Item("A-2", "nut")
    first.tags.append("metal")
    assert second.tags == []


@pytest.mark.parametrize("sku", ["", "   "])
def test_empty_sku_raises(sku):
    with pytest.raises(ValueError):
        Item(sku, "bolt")


def test_negative_quantity_raises():
    with pytest.raises(ValueError):
        Item("A-1", "bolt", quantity=-1)


def test_inventories_do_not_share_items():
    first, second = Inventory(), Inventory()
    first.add(Item("A-1", "bolt", 3))
    assert second.items == {}
    assert second.total_quantity() == 0


def test_add_and_total():
    inv = Inventory()
    inv.add(Item("A-1", "bolt", 3))
    inv.add(Item("A-2", "nut", 4))
    assert inv.total_quantity() == 7
    assert set(inv.items) == {"A-1", "A-2"}


def test_duplicate_sku_raises():
    inv = Inventory()
    inv.add(Item("A-1", "bolt", 3))
    with pytest.raises(ValueError):
        inv.add(Item("A-1", "other bolt", 1))
    assert inv.items["A-1"].name == "bolt"


def test_remove():
    inv = Inventory()
    inv.add(Item("A-1", "bolt", 3))
    item = inv.remove("A-1", 3)
    assert item.quantity == 0
    assert "A-1" in inv.items


@pytest.mark.parametrize("quantity", [0, 4])
def test_remove_bad_quantity_raises_and_keeps_item(quantity):
    inv = Inventory()
    inv.add(Item("A-1", "bolt", 3))
    with pytest.raises(ValueError):
        inv.remove("A-1", quantity)
    assert inv.items["A-1"].quantity == 3


def test_remove_unknown_sku_raises_keyerror():
    with pytest.raises(KeyError):
        Inventory().remove("nope", 1)


def test_with_tag_in_added_order():
    inv = Inventory()
    inv.add(Item("B", "b", 1, ["x"]))
    inv.add(Item("A", "a", 1, ["y"]))
    inv.add(Item("C", "c", 1, ["x", "y"]))
    assert [i.sku for i in inv.with_tag("x")] == ["B", "C"]
    assert inv.with_tag("z") == []
    assert inv.with_tag("x") is not inv.with_tag("x")
