// A command line around sacrebleu-rs (VoiceLessQ/sacrebleu-rs, a Rust port of SacreBLEU), so that
// bench/compiled_peers.sh can time it on files as it times evalcli. Built by that script only.
//
// usage: sacrebleu_rs_cli METRIC HYPOTHESES REFERENCE...
//   METRIC: bleu (13a), bleu-intl, chrf, chrf++, ter
// Prints the corpus score with 6 decimals (as `evalcli METRIC -b -w 6`).
use sacrebleu_rs::{Bleu, Chrf, Ter};

// The file's lines without their '\n' (SacreBLEU reads files as lines the same way).
fn read_lines(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: {} METRIC HYPOTHESES REFERENCE...", args[0]);
        std::process::exit(2);
    }
    let hyps = read_lines(&args[2]);
    let refs: Vec<Vec<String>> = args[3..].iter().map(|p| read_lines(p)).collect();
    let score = match args[1].as_str() {
        "bleu" => Bleu::default().corpus_score(&hyps, &refs).score,
        "bleu-intl" => Bleu { tokenize: "intl".into(), ..Bleu::default() }.corpus_score(&hyps, &refs).score,
        "chrf" => Chrf::default().corpus_score(&hyps, &refs).score,
        "chrf++" => Chrf { word_order: 2, ..Chrf::default() }.corpus_score(&hyps, &refs).score,
        "ter" => Ter::default().corpus_score(&hyps, &refs).score,
        other => {
            eprintln!("unknown metric {other}");
            std::process::exit(2);
        }
    };
    println!("{score:.6}");
}
