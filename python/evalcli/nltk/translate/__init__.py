"""nltk.translate's METEOR over evalcli's C++ METEOR (compat nltk)."""
