#!/usr/bin/env python3
"""Make tests/data/bertscore_distilbert/: a tiny randomly initialised DistilBERT (fixed seed) and the numbers
bert_score 0.3.13 itself computes with it through transformers 4.29.2 (slow tokenizer, CPU).

Run from the repository root, with the sources ../shared/bertscore/regen.sh pins (transformers v4.29.2 + its one
backported patch, huggingface_hub v0.15.1, bert_score 0.3.13) on PYTHONPATH and Debian's python3-torch:
  PYTHONPATH=<transformers>/src:<huggingface_hub>/src:<bert_score> PYTHONHASHSEED=0 TRANSFORMERS_OFFLINE=1 \
  HF_HUB_OFFLINE=1 /usr/bin/python3 tests/data/make_bertscore_distilbert.py ../shared/bertscore
It reuses ../shared/bertscore's approach and files: the WordPiece vocabulary of its tiny-bert-uncased, its
sentence pairs (data/en.*, copied here), its safetensors writer and its golden format (scripts/run_goldens.py).
Weights are rounded to float16 and stored as F16 (half the bytes; evalcli widens them exactly), bert_score reads
the same values as float32 from pytorch_model.bin, which is deleted at the end."""
import hashlib, json, math, os, shutil, sys, tempfile
import numpy as np, torch

SHARED = os.path.abspath(sys.argv[1])
OUT = os.path.abspath(os.path.join(os.path.dirname(__file__), "bertscore_distilbert"))
sys.path.insert(0, os.path.join(SHARED, "scripts"))
import safetensors_np
import bert_score
from bert_score.utils import sent_encode, get_idf_dict, get_tokenizer
from transformers import AutoModel, AutoTokenizer, DistilBertConfig, DistilBertModel, DistilBertTokenizer

assert os.environ.get("PYTHONHASHSEED") == "0", "run with PYTHONHASHSEED=0 (bert_score dedups sentences through a set)"
COMMAND = ("PYTHONPATH=<transformers v4.29.2 + patch>/src:<huggingface_hub v0.15.1>/src:<bert_score 0.3.13> "
           "PYTHONHASHSEED=0 TRANSFORMERS_OFFLINE=1 HF_HUB_OFFLINE=1 /usr/bin/python3 "
           "tests/data/make_bertscore_distilbert.py ../shared/bertscore")
MODEL = "tiny-distilbert"

def randomize(model, seed):
    """make_models.py's scales under DistilBERT's names: LayerNorm gamma 1 + 0.3 r, biases 0.1 r, positions 0.5 r,
    words r, q/k gain 2, FFN gain 1.5; then every value rounded to float16 (stored as F16)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            r = torch.randn(p.shape, generator=g, dtype=torch.float32)
            if "LayerNorm.weight" in name or "layer_norm.weight" in name:
                v = 1.0 + 0.3 * r
            elif name.endswith("bias"):
                v = 0.1 * r
            elif "position_embeddings" in name:
                v = 0.5 * r
            elif "word_embeddings" in name:
                v = r
            elif p.dim() == 2:
                if ".q_lin." in name or ".k_lin." in name: gain = 2.0
                elif ".ffn.lin" in name: gain = 1.5
                else: gain = 1.0                      # v_lin, out_lin
                v = r * (gain / math.sqrt(p.shape[1]))
            else:
                raise ValueError(name)
            p.copy_(v.half().float())

def make_model(folder):
    tok = DistilBertTokenizer(os.path.join(SHARED, "models/tiny-bert-uncased/vocab.txt"), do_lower_case=True,
                              model_max_length=128)
    cfg = DistilBertConfig(vocab_size=len(tok), max_position_embeddings=128, n_layers=6, n_heads=4, dim=32,
                           hidden_dim=48, dropout=0.0, attention_dropout=0.0, activation="gelu",
                           pad_token_id=tok.pad_token_id)
    torch.manual_seed(0)
    model = DistilBertModel(cfg)
    randomize(model, 6)
    model.eval()
    if os.path.exists(folder): shutil.rmtree(folder)
    model.save_pretrained(folder)          # config.json + pytorch_model.bin (the Rust safetensors package is absent)
    tok.save_pretrained(folder)
    sd = {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}
    safetensors_np.save({k: v.astype(np.float16) for k, v in sd.items()}, os.path.join(folder, "model.safetensors"),
                        metadata={"format": "pt"})
    back, _ = safetensors_np.load(os.path.join(folder, "model.safetensors"))
    assert set(back) == set(sd)
    for k in sd:   # float16 widened back is every float32 weight bit for bit
        assert back[k].dtype == np.float16 and back[k].astype(np.float32).tobytes() == sd[k].tobytes(), k
    m2 = AutoModel.from_pretrained(folder).eval(); t2 = AutoTokenizer.from_pretrained(folder, use_fast=False)
    assert type(m2).__name__ == "DistilBertModel" and type(t2).__name__ == "DistilBertTokenizer"
    ids = torch.tensor([t2.encode("The quick brown fox jumps over the lazy dog.")])
    with torch.no_grad():
        a = model(ids, output_hidden_states=True).hidden_states; b = m2(ids, output_hidden_states=True).hidden_states
    assert all(torch.equal(x, y) for x, y in zip(a, b))
    print(f"{folder}: params={sum(p.numel() for p in model.parameters())} tensors={len(sd)} vocab={len(t2)}")

def rd(name):
    with open(os.path.join(OUT, "data", name), encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]

def score(model_type, cands, refs, L, idf, f64, bs, all_layers):
    torch.set_default_dtype(torch.float64 if f64 else torch.float32)
    try:
        (P, R, F), h = bert_score.score(cands, refs, model_type=model_type, num_layers=L, idf=idf, device="cpu",
                                        batch_size=bs, lang="en", all_layers=all_layers, return_hash=True)
    finally:
        torch.set_default_dtype(torch.float32)
    return P.numpy(), R.numpy(), F.numpy(), h

def golden(name, model_type, L, idf, bs=64, all_layers=False, file_layer=None):
    """One golden in run_goldens.py's format: the call, the hash, then P/R/F float32 and float64 per pair."""
    cands, refs = rd("en.cand"), rd("en.ref")
    P, R, F, h = score(model_type, cands, refs, L, idf, False, bs, all_layers)
    P64, R64, F64, _ = score(model_type, cands, refs, L, idf, True, bs, all_layers)
    path = os.path.join(OUT, "golden", MODEL, name)
    with open(path, "w") as f:
        f.write("# bert_score.score(cands, refs, model_type=%s, num_layers=%s, idf=%s, batch_size=%d, lang='en', "
                "rescale_with_baseline=False, baseline_path=None, all_layers=%s)\n# hash: %s\n"
                % ("<folder>" if model_type.startswith("models/") else repr(model_type), L, idf, bs, all_layers, h))
        f.write("# P32/R32/F32: the float32 values bert_score returns (printed exactly); P64/R64/F64: same code with torch default dtype float64\n")
        f.write("# made by: %s\n" % COMMAND)
        if all_layers:
            f.write("layer\ti\tP32\tR32\tF32\tP64\tR64\tF64\n")
            for l in range(P.shape[0]):
                for i in range(P.shape[1]):
                    f.write("%d\t%d\t%s\t%s\t%s\t%.17g\t%.17g\t%.17g\n" % (l, i, *(repr(float(x[l, i])) for x in (P, R, F)), P64[l, i], R64[l, i], F64[l, i]))
        else:
            f.write("i\tP32\tR32\tF32\tP64\tR64\tF64\n")
            for i in range(len(P)):
                f.write("%d\t%s\t%s\t%s\t%.17g\t%.17g\t%.17g\n" % (i, repr(float(P[i])), repr(float(R[i])), repr(float(F[i])), P64[i], R64[i], F64[i]))
    d = max(np.abs(P - P64).max(), np.abs(R - R64).max(), np.abs(F - F64).max())
    print(f"{name:34s} hash={h} F[0]={float(F.reshape(-1)[0]):.9g} |f32-f64|max={d:.2e}", flush=True)

def dump_tokens_idf_hidden(folder):
    tok = get_tokenizer(folder, use_fast=False)
    cands, refs = rd("en.cand"), rd("en.ref")
    g = os.path.join(OUT, "golden", MODEL)
    with open(os.path.join(g, "tokens.en.jsonl"), "w", encoding="utf-8") as f:
        for i, (c, r) in enumerate(zip(cands, refs)):
            f.write(json.dumps({"i": i, "cand": c, "ref": r, "cand_ids": sent_encode(tok, c), "ref_ids": sent_encode(tok, r),
                                "cand_tokens": tok.convert_ids_to_tokens(sent_encode(tok, c)),
                                "ref_tokens": tok.convert_ids_to_tokens(sent_encode(tok, r))}, ensure_ascii=False) + "\n")
    idf = get_idf_dict(refs, tok, nthreads=4)
    with open(os.path.join(g, "idf.en.json"), "w") as f:
        json.dump({"num_docs": len(refs), "default": idf[-12345], "idf": {str(k): v for k, v in sorted(idf.items()) if k != -12345}}, f, indent=0)
    m = AutoModel.from_pretrained(folder).eval()
    sents = refs[:3]
    out = {}
    for k, x in enumerate(sent_encode(tok, s) for s in sents):
        with torch.no_grad():
            hs = m(torch.tensor([x]), attention_mask=torch.ones(1, len(x), dtype=torch.long), output_hidden_states=True).hidden_states
        out[f"s{k}.input_ids"] = np.array(x, dtype=np.int64)
        out[f"s{k}.hidden_states"] = torch.stack(hs, 0)[:, 0].numpy()   # (layers+1, T, H)
    safetensors_np.save(out, os.path.join(g, "hidden_states.en3.safetensors"), metadata={"sentences": json.dumps(sents, ensure_ascii=False)})

for sub in ("data", "golden", "models"):   # README.md is kept
    if os.path.exists(os.path.join(OUT, sub)): shutil.rmtree(os.path.join(OUT, sub))
os.makedirs(os.path.join(OUT, "data")); os.makedirs(os.path.join(OUT, "golden", MODEL))
for name in ("en.cand", "en.ref"):
    shutil.copyfile(os.path.join(SHARED, "data", name), os.path.join(OUT, "data", name))
os.chdir(OUT)                              # hashes name the folder as "models/tiny-distilbert", like the shared goldens
folder = os.path.join("models", MODEL)
make_model(folder)
for L in range(0, 7):
    for idf in (False, True):
        golden("en.L%d.%s.tsv" % (L, "idf" if idf else "noidf"), folder, L, idf)
for idf in (False, True):
    golden("en.L5.%s.bs1.tsv" % ("idf" if idf else "noidf"), folder, 5, idf, bs=1)
golden("en.L6.noidf.all_layers.tsv", folder, 6, False, all_layers=True)
# bert_score's default layer and hash for distilbert-base-uncased (model2layers: 5): the folder under that name,
# given as model_type from its parent folder (transformers loads an existing local folder of that name).
with tempfile.TemporaryDirectory() as tmp:
    shutil.copytree(folder, os.path.join(tmp, "distilbert-base-uncased"))
    here = os.getcwd(); os.chdir(tmp)
    try:
        golden("en.L5.noidf.default-layer.tsv", "distilbert-base-uncased", None, False)
    finally:
        os.chdir(here)
dump_tokens_idf_hidden(folder)
os.remove(os.path.join(folder, "pytorch_model.bin"))
with open("md5sums.txt", "w") as f:
    for root, _, files in sorted(os.walk(".")):
        for name in sorted(files):
            p = os.path.relpath(os.path.join(root, name))
            if p not in ("md5sums.txt", "README.md"):
                f.write("%s  %s\n" % (hashlib.md5(open(p, "rb").read()).hexdigest(), p))
print("done:", OUT, "torch", torch.__version__, "bert_score", bert_score.__version__, "transformers", __import__("transformers").__version__)
