"""A placebo prompt: rule-shaped text that teaches nothing about the product, length-matched.

Part of "rules help" is any instruction text priming a model, not what the rules say. A placebo
arm separates the two: its prompt has the controlled set's template (same header, same rule format,
same footer) and exactly as many tokens, but its rules are about another domain (keeping a
community garden), so nothing in it can teach the suite's tasks.

Why another domain rather than the real rules' words shuffled: a shuffled rule still carries the
rule's key words (``casefold``, ``"use node"``, an API name), and for a real model a key word alone
is a hint, so shuffling would leak content into the control. Garden rules carry none.

The text is generated, not drawn from a fixed list, so a placebo for a 7,000-token set repeats no
rule: titles and sentences combine verbs, objects, times and reasons with a ``random.Random(seed)``;
the same seed and target give the same bytes on any machine. The prompt is recorded and
content-hashed like any composed prompt (its hash is its run's identity); it has no rules.
"""

from __future__ import annotations

import random

from tuner.errors import InputError
from tuner.guidelines.compose import Prompt
from tuner.guidelines.rules import normalise_text
from tuner.guidelines.template import Template
from tuner.hashing import sha256_text

__all__ = ["placebo_prompt", "placebo_name", "PLACEBO_DOMAIN"]

PLACEBO_DOMAIN = "keeping a community garden"

_SECTIONS = ("Watering", "Soil", "Tools", "Harvest", "Compost", "Seedlings", "Paths", "Shed", "Visitors", "Seasons")
_VERBS = (
    "Check",
    "Rinse",
    "Label",
    "Turn",
    "Cover",
    "Stack",
    "Sweep",
    "Weigh",
    "Note",
    "Loosen",
    "Trim",
    "Store",
    "Inspect",
    "Empty",
    "Refill",
    "Wipe",
    "Hang",
    "Count",
    "Fold",
    "Return",
)
_OBJECTS = (
    "the watering cans",
    "the seed trays",
    "the compost heap",
    "the rakes",
    "the raised beds",
    "the garden gloves",
    "the bean poles",
    "the wheelbarrow",
    "the rain barrel",
    "the potting bench",
    "the onion sets",
    "the fruit netting",
    "the hose reel",
    "the trowels",
    "the cold frame",
    "the herb border",
    "the tomato cages",
    "the leaf mould bags",
    "the shed key",
    "the sign-in book",
    "the strawberry runners",
    "the mulch pile",
    "the pea sticks",
    "the seed packets",
)
_WHENS = (
    "before the first frost",
    "after every harvest",
    "at the end of each week",
    "when the soil is dry",
    "before lending them out",
    "on the first day of the month",
    "after a heavy rain",
    "before visitors arrive",
    "when the days get shorter",
    "every Saturday morning",
    "before closing the gate",
    "after the spring sowing",
)
_REASONS = (
    "A tidy plot saves time for the next gardener.",
    "Neighbours share these, so leave them as you found them.",
    "Wet wood rots within a season.",
    "Slugs hide in anything left on the ground overnight.",
    "The committee reviews the shed every quarter.",
    "Young plants bruise easily in the wind.",
    "Frost cracks clay pots that hold water.",
    "Volunteers rely on the notes you leave behind.",
    "Birds take the seed if it is left uncovered.",
    "Rust spreads quickly on blades stored damp.",
    "Children visit on Sundays and follow the paths.",
    "Fresh compost burns tender roots.",
)
_NEVERS = (
    "Never leave {o} in the sun.",
    "Do not stack {o} on the path.",
    "Keep {o} away from the pond.",
    "Ask before moving {o} to another plot.",
    "Leave {o} where the next person expects it.",
    "Write the date on {o} in pencil.",
)


def placebo_name(of: str, seed: int) -> str:
    """The placebo's set name: what it is matched to and its seed."""
    return f"placebo-{of}-s{seed}"


def _rule(rng: random.Random) -> tuple[str, str]:
    title = f"{rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_WHENS)}"
    sentences = [f"{rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_WHENS)}.", rng.choice(_REASONS)]
    for _ in range(rng.randint(0, 2)):
        sentences.append(rng.choice(_NEVERS).format(o=rng.choice(_OBJECTS)))
    return title, " ".join(sentences)


def _render(template: Template, blocks: list[str]) -> str:
    parts = [normalise_text(template.header)] if template.header.strip() else []
    parts += blocks
    if template.footer.strip():
        parts.append(normalise_text(template.footer))
    return "\n\n".join(parts) + "\n"


def placebo_prompt(template: Template, tokens: int, *, seed: int = 0, of: str = "") -> Prompt:
    """A prompt of ``template`` with garden rules, exactly ``tokens`` tokens long (the count the
    product uses, ``tuner.tokens.count_tokens``). Raises ``InputError`` when ``tokens`` leaves no
    room for a rule (the controlled set is as short as its template alone)."""
    from tuner.tokens import count_tokens

    def size(blocks: list[str]) -> int:
        return count_tokens(_render(template, blocks))

    if tokens <= size([]):
        raise InputError(
            f"set '{of}' has no rule text to match ({tokens} tokens, its template alone): "
            "a placebo needs a set with rules"
        )
    rng = random.Random(f"tuner-placebo|{seed}")
    blocks: list[str] = []
    sections = list(_SECTIONS)
    rng.shuffle(sections)
    words: list[str] = []
    while True:
        # One section heading per few rules, like a real guideline file.
        if not blocks or rng.random() < 0.3:
            heading = f"## {sections[len([b for b in blocks if b.startswith('## ')]) % len(sections)]}"
            if size([*blocks, heading]) >= tokens:
                break
            blocks.append(heading)
        title, text = _rule(rng)
        block = template.rule_format.format(id=f"garden.{len(blocks)}", title=title, text=text)
        if size([*blocks, block]) > tokens:
            # The last rule is cut to fit: the longest prefix of its words that does not overflow.
            words = block.split(" ")
            break
        blocks.append(block)
    kept = 0
    for n in range(len(words), 0, -1):
        if size([*blocks, " ".join(words[:n])]) <= tokens:
            kept = n
            break
    tail = " ".join(words[:kept])
    # Pad a token at a time with one-token garden words to land exactly on the target.
    pad = iter(rng.choice(("soil", "seed", "leaf", "root", "rain", "moss")) for _ in range(64))
    text = _render(template, [*blocks, tail] if tail else blocks)
    while count_tokens(text) < tokens:
        tail = f"{tail} {next(pad)}".strip()
        text = _render(template, [*blocks, tail])
    count = count_tokens(text)
    return Prompt(
        set_name=placebo_name(of, seed),
        template=template.name,
        template_hash=template.hash,
        text=text,
        rules=(),
        hash=sha256_text(text),
        tokens=count,
    )
