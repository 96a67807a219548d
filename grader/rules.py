"""Static rules of the statements, read from the learner's source without running it.

Stages 2 and 3 ask for attention, normalisation, GELU and the cache to be built by hand:
packaged transformer layers and generation helpers are out (a softmax helper is fine).
Names are resolved through the file's own imports, so `import torch.nn.functional as F`
followed by `F.scaled_dot_product_attention(...)` is caught, and a learner's own
function called `gelu` is not.
"""
from __future__ import annotations

import ast

PACKAGED = {
    "torch.nn.MultiheadAttention", "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.functional.multi_head_attention_forward", "torch.nn.Transformer",
    "torch.nn.TransformerEncoder", "torch.nn.TransformerDecoder", "torch.nn.TransformerEncoderLayer",
    "torch.nn.TransformerDecoderLayer", "torch.nn.LayerNorm", "torch.nn.functional.layer_norm",
    "torch.layer_norm", "torch.nn.GELU", "torch.nn.functional.gelu", "jax.nn.gelu",
    "flax.linen.MultiHeadDotProductAttention", "flax.linen.SelfAttention", "flax.linen.LayerNorm",
    "keras.layers.MultiHeadAttention", "keras.layers.LayerNormalization",
    "tensorflow.keras.layers.MultiHeadAttention", "tensorflow.keras.layers.LayerNormalization",
}
PACKAGES = ("transformers", "vllm", "xformers", "flash_attn")  # libraries whose whole point is the model


def _imports(tree: ast.AST) -> dict[str, str]:
    """Local name -> the dotted path it stands for."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.AST, names: dict[str, str]) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in names:
        return ".".join([names[node.id], *reversed(parts)])
    return None


def packaged_layers(source: str) -> list[tuple[int, str]]:
    """(line, what) for every packaged layer or model library the source uses."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # the runner reports syntax errors with their line
    names = _imports(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                if module.split(".")[0] in PACKAGES:
                    found.append((node.lineno, f"the {module.split('.')[0]} library"))
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in PACKAGED:
                        found.append((node.lineno, f"{node.module}.{alias.name}"))
        elif isinstance(node, (ast.Attribute, ast.Name)):
            path = _dotted(node, names)
            if path in PACKAGED and not (isinstance(node, ast.Name) and path == names.get(node.id) and
                                         _imported_directly(tree, node.id)):
                found.append((node.lineno, path))
    return sorted(set(found))


def _imported_directly(tree, name) -> bool:
    """`from torch.nn import LayerNorm` is already reported at the import line."""
    return any(isinstance(n, ast.ImportFrom) and any((a.asname or a.name) == name for a in n.names)
               for n in ast.walk(tree))
