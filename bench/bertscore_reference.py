#!/usr/bin/env python3
"""bert_score itself next to `evalcli bertscore`: model folders both can load, bert_score's numbers in
the goldens' TSV layout, and a count of the pairs where evalcli agrees.

Runs with Debian's /usr/bin/python3 + python3-torch 1.13.1 and the source checkouts that
../shared/bertscore/regen.sh uses (transformers v4.29.2 + its one patch, huggingface_hub v0.15.1,
bert_score 19e7f551), e.g.
  export PYTHONPATH=$SRC/transformers/src:$SRC/huggingface_hub/src:$SRC/bert_score
  export PYTHONHASHSEED=0 TRANSFORMERS_OFFLINE=1 HF_HUB_OFFLINE=1

  bertscore_reference.py loadable SRC_DIR OUT_DIR      copy a model folder and add pytorch_model.bin written
                                                       from its model.safetensors (transformers 4.29 reads
                                                       safetensors only through the absent Rust package)
  bertscore_reference.py base-model TOK_DIR OUT_DIR    a bert-base-sized random BERT (768 hidden, 12 layers)
                                                       with TOK_DIR's vocab.txt and lower-casing,
                                                       initialised as make_models.py --base does, both files
  bertscore_reference.py score MODEL CANDS REFS[,REFS2] LAYER OUT.tsv [--idf] [--batch-size N] [--lang L]
                                                       bert_score.score() in float32 and float64
  bertscore_reference.py compare OUT.tsv EVALCLI.json  pairs within 1e-5 of the float64 and float32 columns
"""
import json, math, os, shutil, struct, sys, time


def read_safetensors(path):
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    header.pop("__metadata__", None)
    dtypes = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64}
    out = {}
    for name, info in header.items():
        b0, b1 = info["data_offsets"]
        dt = np.dtype(dtypes[info["dtype"]]).newbyteorder("<")
        out[name] = np.frombuffer(raw, dtype=dt, count=(b1 - b0) // dt.itemsize, offset=8 + n + b0).reshape(info["shape"])
    return out


def write_safetensors(tensors, path):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        data = tensors[name].astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for data in blobs:
            f.write(data)


def loadable(src, out):
    import torch
    if os.path.exists(out):
        shutil.rmtree(out)
    shutil.copytree(src, out)
    tensors = read_safetensors(os.path.join(src, "model.safetensors"))
    torch.save({k: torch.from_numpy(v.copy()) for k, v in tensors.items()}, os.path.join(out, "pytorch_model.bin"))
    print(out, len(tensors), "tensors")


def randomize(model, seed):
    """make_models.py's initialisation (../shared/bertscore/scripts): non-trivial LayerNorms and biases."""
    import torch
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            r = torch.randn(p.shape, generator=g, dtype=torch.float32)
            if "LayerNorm.weight" in name:
                v = 1.0 + 0.3 * r
            elif name.endswith("bias"):
                v = 0.1 * r
            elif "token_type_embeddings" in name:
                v = 0.2 * r
            elif "position_embeddings" in name:
                v = 0.5 * r
            elif "word_embeddings" in name:
                v = r
            else:
                gain = 2.0 if (".query." in name or ".key." in name) else \
                    1.5 if ("intermediate.dense" in name or "output.dense" in name) else 1.0
                v = r * (gain / math.sqrt(p.shape[1]))
            p.copy_(v)


def base_model(tok_dir, out):
    """As make_models.py --base: BertTokenizer(vocab, 512), 768/12/12/3072, seeds 0 and 5; lower-casing as
    TOK_DIR's tokenizer_config.json says (make_models.py: uncased)."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer
    lower = json.load(open(os.path.join(tok_dir, "tokenizer_config.json"))).get("do_lower_case", True)
    tok = BertTokenizer(os.path.join(tok_dir, "vocab.txt"), do_lower_case=lower, model_max_length=512)
    cfg = BertConfig(vocab_size=len(tok), hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                     intermediate_size=3072, max_position_embeddings=512, type_vocab_size=2, layer_norm_eps=1e-12,
                     pad_token_id=0, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    torch.manual_seed(0)
    model = BertModel(cfg)
    randomize(model, 5)
    model.eval()
    if os.path.exists(out):
        shutil.rmtree(out)
    model.save_pretrained(out)   # config.json + pytorch_model.bin
    tok.save_pretrained(out)
    write_safetensors({k: v.detach().numpy() for k, v in model.state_dict().items()}, os.path.join(out, "model.safetensors"))
    print(out, sum(p.numel() for p in model.parameters()), "parameters")


def read_lines(path):
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]


def score(model, cands_path, refs_paths, layer, out, idf, batch_size, lang):
    import numpy as np, torch, bert_score
    assert os.environ.get("PYTHONHASHSEED") == "0", "PYTHONHASHSEED=0: bert_score dedups sentences through a set"
    cands = read_lines(cands_path)
    ref_sets = [read_lines(p) for p in refs_paths.split(",")]
    refs = ref_sets[0] if len(ref_sets) == 1 else [list(group) for group in zip(*ref_sets)]
    results = []
    for dtype in (torch.float32, torch.float64):
        torch.set_default_dtype(dtype)
        start = time.process_time()
        (P, R, F), h = bert_score.score(cands, refs, model_type=model, num_layers=layer, idf=idf, device="cpu",
                                        batch_size=batch_size, lang=lang, return_hash=True)
        print(f"{dtype}: {time.process_time() - start:.1f} s CPU, hash {h}", file=sys.stderr)
        results.append([x.numpy() for x in (P, R, F)])
    torch.set_default_dtype(torch.float32)
    (P, R, F), (P64, R64, F64) = results
    with open(out, "w") as f:
        f.write("# bert_score.score(cands, refs, model_type=%r, num_layers=%d, idf=%s, batch_size=%d, lang=%r)\n"
                % (os.path.basename(model.rstrip("/")), layer, idf, batch_size, lang))
        f.write("# made by: bench/bertscore_reference.py score %s\n" % " ".join(sys.argv[2:]))
        f.write("# hash: %s; torch %s, bert_score %s, transformers %s, threads %d\n"
                % (h, torch.__version__, bert_score.__version__, __import__("transformers").__version__, torch.get_num_threads()))
        f.write("i\tP32\tR32\tF32\tP64\tR64\tF64\n")
        for i in range(len(P)):
            f.write("%d\t%r\t%r\t%r\t%.17g\t%.17g\t%.17g\n"
                    % (i, float(P[i]), float(R[i]), float(F[i]), P64[i], R64[i], F64[i]))


def compare(tsv, report, tolerance=1e-5):
    rows = [line.rstrip("\n").split("\t") for line in open(tsv) if line[0].isdigit()]
    sentences = json.load(open(report))["sentences"]
    assert len(rows) == len(sentences), (len(rows), len(sentences))
    for name, first in (("float64", 4), ("float32", 1)):
        gaps = [max(abs(s["stats"][c] - float(row[first + c])) for c in range(3)) for row, s in zip(rows, sentences)]
        close = sum(g <= tolerance for g in gaps)
        print(f"{tsv}: {close} of {len(rows)} pairs within {tolerance:g} of bert_score's {name} P/R/F "
              f"(largest gap {max(gaps):.2e})")


def main(argv):
    command = argv[1]
    if command == "loadable":
        loadable(argv[2], argv[3])
    elif command == "base-model":
        base_model(argv[2], argv[3])
    elif command == "score":
        options = argv[7:]
        get = lambda flag, default: options[options.index(flag) + 1] if flag in options else default
        score(argv[2], argv[3], argv[4], int(argv[5]), argv[6], "--idf" in options, int(get("--batch-size", "64")),
              get("--lang", "en"))
    elif command == "compare":
        compare(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
