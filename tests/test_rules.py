"""Stages 2-3 forbid packaged transformer layers; the rule is read from the source, by name resolution."""
from conftest import REPO, grade
from grader.report import FAILED
from grader.rules import packaged_layers


def test_packaged_layers_are_found_through_aliases():
    source = "\n".join([
        "import torch.nn.functional as F",
        "from torch import nn",
        "from transformers import GenerationMixin",
        "y = F.scaled_dot_product_attention(q, k, v)",
        "layer = nn.MultiheadAttention(8, 2)",
        "z = torch.nn.functional.gelu(x)",
    ])
    found = dict(packaged_layers(source))
    assert found[3] == "the transformers library"
    assert found[4] == "torch.nn.functional.scaled_dot_product_attention"
    assert found[5] == "torch.nn.MultiheadAttention"


def test_own_helpers_and_softmax_helpers_are_fine():
    source = "\n".join([
        "import numpy as np",
        "import torch.nn.functional as F",
        "def gelu(u): return u",
        "def layer_norm(x): return x",
        "y = gelu(layer_norm(x))",
        "w = F.softmax(s, dim=-1)",
        "from scipy.special import softmax",
    ])
    assert packaged_layers(source) == []


def test_a_correct_submission_that_imports_a_packaged_layer_fails_by_rule(tmp_path):
    source = (REPO / "solutions" / "causal_lm_generate_with_kv_cache.py").read_text()
    source = source.replace("import numpy as np", "import numpy as np\ntry:\n"
                            "    from torch.nn.functional import scaled_dot_product_attention\n"
                            "except ImportError:\n    scaled_dot_product_attention = None", 1)
    target = tmp_path / "causal_lm_generate_with_kv_cache.py"
    target.write_text(source)
    report = grade("causal_lm_generate_with_kv_cache", target)
    assert report.status == FAILED
    failed = [c for c in report.checks if not c.passed]
    assert [c.name for c in failed] == ["built_by_hand"], failed
    assert "scaled_dot_product_attention" in failed[0].message
