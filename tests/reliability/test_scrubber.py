"""The one scrubber (tuner.secrets): every credential-named variable, whatever its suffix, and the
key shapes providers issue; provider errors, analyses and proposals all use it."""

from __future__ import annotations

import pytest

from tuner import secrets

ENV = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # ends in ACCESS_KEY, not API_KEY
    "AZURE_OPENAI_KEY_2": "azure-Lm4Nb6Vc8Xz0",  # KEY in the middle
    "GOOGLE_APPLICATION_CREDENTIALS_JSON": '{"private": "pk-Zx9Yw8Vu7"}',
    "DB_PASSWORD": "hunter2-Rt5Gy7",
    "SLACK_TOKEN_OLD": "plain-Hj6Kl8Mn0Pq",
}


@pytest.mark.parametrize("name", sorted(ENV))
def test_every_credential_named_variable_is_masked(monkeypatch, name):
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    text = f"provider said: bad credentials {ENV[name]} (retry later)"
    for out in (secrets.scrub(text), secrets.mask(text), secrets.mask_tree({"a": [text]})["a"][0]):
        assert ENV[name] not in out and "***" in out


def test_short_values_and_other_names_are_left_alone(monkeypatch):
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    monkeypatch.setenv("MODEL_NAME", "gpt-4o-mini-2024")
    assert secrets.scrub("false gpt-4o-mini-2024") == "false gpt-4o-mini-2024"


@pytest.mark.parametrize(
    "shape",
    [
        "sk-proj-ABCDEFGH12345678",
        "sk-ant-api03-abcdefghijkl",
        "AKIAIOSFODNN7EXAMPLE",
        "AIza" + "x" * 30,
        "ghp_" + "a1" * 15,
        "github_pat_" + "B2" * 15,
        "hf_" + "c3" * 15,
        "xoxb-1234567890-abcdef",
        "tk_0123456789ab_" + "Zy" * 12,
    ],
)
def test_key_shapes_are_masked_without_any_variable(shape):
    out = secrets.scrub(f"Error: key {shape} rejected")
    assert shape not in out and shape[4:12] not in out


def test_headers_and_assignments_are_masked():
    text = 'Error: "Authorization: Bearer abc.def-ghi" api_key=xyz12345 "x-api-key": "q9w8e7r6"\nmore'
    out = secrets.scrub(text)
    assert "abc.def" not in out and "xyz12345" not in out and "q9w8e7r6" not in out and "\n" not in out


def test_scrub_masks_before_it_cuts(monkeypatch):
    key = "k" * 30 + "-Secret-Tail-9"
    monkeypatch.setenv("X_API_KEY", key)
    out = secrets.scrub("x" * 390 + key)
    assert len(out) <= 400 and "kkkkk" not in out


def test_provider_errors_use_the_one_scrubber():
    from tuner.models import client

    assert client.scrub is secrets.scrub


def test_grader_processes_get_no_credential_named_variable(tmp_path):
    from tuner.grading import sandbox

    extra = {"GOOGLE_APPLICATION_CREDENTIALS_JSON": "x", "DB_PASSWD": "y", "AWS_SECRET_ACCESS_KEY": "z", "LANG_X": "ok"}
    env = sandbox.scrubbed_env(tmp_path, extra)
    assert env["LANG_X"] == "ok" and not {k for k in extra if k != "LANG_X"} & set(env)
