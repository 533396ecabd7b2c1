from __future__ import annotations

import subprocess
import sys

import pytest

from tuner.errors import InputError, NotFoundError, ProviderError
from tuner.models import ModelSpec, load_panel
from tuner.paths import Project


def _write(tmp_path, text: str):
    path = tmp_path / "p.toml"
    path.write_text(text)
    return path


def test_example_panel_loads(root):
    specs = load_panel("panel", Project(root))
    assert [s.model for s in specs] == ["sim/careful", "sim/overeager", "sim/expert"]
    assert all(s.is_sim for s in specs)


def test_key_is_model_params_api_base_only():
    a = ModelSpec(model="openai/x", params={"temperature": 0.2, "seed": 1})
    b = ModelSpec(model="openai/x", params={"seed": 1, "temperature": 0.2}, concurrency=2, rpm=10, max_retries=0)
    c = ModelSpec(model="openai/x", params={"temperature": 0.3, "seed": 1})
    assert a.key == b.key != c.key
    assert a.key != ModelSpec(model="openai/x", params=a.params, api_base="http://h/v1").key


def test_api_key_in_params_is_refused(tmp_path):
    with pytest.raises(InputError, match="environment variable"):
        ModelSpec(model="openai/x", params={"api_key": "sk-123"})
    path = _write(tmp_path, '[[models]]\nmodel = "openai/x"\nparams = { api_key = "sk-1" }\n')
    with pytest.raises(InputError, match=r"p\.toml: models\[0\] \(openai/x\).*api_key"):
        load_panel(path)


def test_errors_name_file_and_field(tmp_path):
    with pytest.raises(InputError, match=r"p\.toml: models\[1\] \(openai/y\): concurrency"):
        load_panel(_write(tmp_path, '[[models]]\nmodel="openai/x"\n[[models]]\nmodel="openai/y"\nconcurrency=0\n'))
    with pytest.raises(InputError, match=r"models\[0\].*temprature"):
        load_panel(_write(tmp_path, '[[models]]\nmodel="openai/x"\ntemprature=1\n'))
    with pytest.raises(InputError, match="no \\[\\[models\\]\\]"):
        load_panel(_write(tmp_path, "\n"))
    with pytest.raises(InputError, match="unknown top-level key 'model'"):
        load_panel(_write(tmp_path, 'model = "openai/x"\n'))
    with pytest.raises(InputError, match="not valid TOML"):
        load_panel(_write(tmp_path, "[[models]\n"))
    with pytest.raises(NotFoundError):
        load_panel("nope", Project(tmp_path))


def test_bad_model_strings_are_provider_errors(tmp_path):
    with pytest.raises(ProviderError, match="gpt-4o.*provider prefix"):
        load_panel(_write(tmp_path, '[[models]]\nmodel="gpt-4o"\n'))
    with pytest.raises(ProviderError, match="sim/nobody"):
        load_panel(_write(tmp_path, '[[models]]\nmodel="sim/nobody"\n'))


def test_import_does_not_load_litellm():
    code = "import sys, tuner.models, tuner.models.sim.truth; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
