"""Recurrent layers: LSTMs, GRUs, tree LSTMs and the stacked n-step
RNNs over variable-length sequences."""
