"""tuner: tune the guideline files that teach LLMs to write code for a product, with evidence."""

__version__ = "0.1.0"
__all__ = ["__version__"]
