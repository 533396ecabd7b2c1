"""Simulated models (``sim/<profile>``) with planted, documented knowledge gaps.

Plain modules (``gaps``, ``profiles``, ``suite``, ``answers``, ``truth``) hold the logic and import no
litellm, so analysis code can use the planted truth cheaply; ``provider`` is the litellm adapter.
"""
