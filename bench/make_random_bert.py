#!/usr/bin/env python3
"""A bert-base-sized random BERT folder for bench/bertscore.sh, in pure Python (no numpy, no torch):
bench/make_random_bert.py TOKENIZER_DIR OUT_DIR. The tokenizer files (vocab.txt, tokenizer_config.json,
special_tokens_map.json) are copied from TOKENIZER_DIR; 768 hidden, 12 layers, 12 heads, 3072 intermediate.
Weights are one block of uniform random numbers repeated (the CPU cost does not depend on the values)."""
import json, os, random, shutil, struct, sys
from array import array

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
    shutil.copy(os.path.join(src, name), out)
vocab = sum(1 for _ in open(os.path.join(src, "vocab.txt"), encoding="utf-8"))
H, L, I, P = 768, 12, 3072, 512
config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "hidden_size": H,
          "num_hidden_layers": L, "num_attention_heads": 12, "intermediate_size": I, "max_position_embeddings": P,
          "type_vocab_size": 2, "vocab_size": vocab, "layer_norm_eps": 1e-12, "pad_token_id": 0}
json.dump(config, open(os.path.join(out, "config.json"), "w"), indent=2)

shapes = {"embeddings.word_embeddings.weight": [vocab, H], "embeddings.position_embeddings.weight": [P, H],
          "embeddings.token_type_embeddings.weight": [2, H], "embeddings.LayerNorm.weight": [H],
          "embeddings.LayerNorm.bias": [H]}
for l in range(L):
    p = f"encoder.layer.{l}."
    for name, o, i in (("attention.self.query", H, H), ("attention.self.key", H, H), ("attention.self.value", H, H),
                       ("attention.output.dense", H, H), ("intermediate.dense", I, H), ("output.dense", H, I)):
        shapes[p + name + ".weight"] = [o, i]
        shapes[p + name + ".bias"] = [o]
    for name in ("attention.output.LayerNorm", "output.LayerNorm"):
        shapes[p + name + ".weight"] = [H]
        shapes[p + name + ".bias"] = [H]

rng = random.Random(1)
block = array("f", (rng.uniform(-0.05, 0.05) for _ in range(1 << 20))).tobytes()
header, offset = {}, 0
for name in sorted(shapes):
    n = 1
    for d in shapes[name]:
        n *= d
    header[name] = {"dtype": "F32", "shape": shapes[name], "data_offsets": [offset, offset + 4 * n]}
    offset += 4 * n
text = json.dumps(header, separators=(",", ":")).encode()
text += b" " * ((8 - len(text) % 8) % 8)
one = array("f", [1.0]).tobytes()
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text)
    for name in sorted(shapes):
        size = header[name]["data_offsets"][1] - header[name]["data_offsets"][0]
        if name.endswith("LayerNorm.weight"):
            f.write(one * (size // 4))  # gamma 1: the hidden states keep their scale
            continue
        while size > 0:
            f.write(block[:min(size, len(block))])
            size -= len(block)
print(out, offset // 4, "parameters")
