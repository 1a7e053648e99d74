"""A drop-in for rouge-score 0.1.2 (google-research rouge): ``from evalcli.rouge_score import rouge_scorer, scoring``."""
