"""`citegate learn`: fine-tune a small cross-encoder on labelled claims and export it to ONNX.

Training needs PyTorch (the optional extra `citegate[learn]`); nothing here is imported by the
stage at run time, which scores with ONNX Runtime only (`stream.checkers.model`).
"""
