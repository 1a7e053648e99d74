"""pycocoevalcap.cider"""
