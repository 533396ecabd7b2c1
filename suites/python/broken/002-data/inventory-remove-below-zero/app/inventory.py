"""A validated inventory of stock items."""

from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    tags: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.sku.strip():
            raise ValueError("sku must not be empty")
        if self.quantity < 0:
            raise ValueError(f"quantity must not be negative, got {self.quantity}")


@dataclass
class Inventory:
    items: dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> None:
        if item.sku in self.items:
            raise ValueError(f"sku {item.sku!r} is already in the inventory")
        self.items[item.sku] = item

    def remove(self, sku: str, quantity: int) -> Item:
        if quantity < 1:
            raise ValueError(f"quantity to remove must be at least 1, got {quantity}")
        item = self.items[sku]
        item.quantity -= quantity
        return item

    def total_quantity(self) -> int:
        return sum(item.quantity for item in self.items.values())

    def with_tag(self, tag: str) -> list[Item]:
        return [item for item in self.items.values() if tag in item.tags]
