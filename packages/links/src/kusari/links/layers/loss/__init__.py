"""Loss layers with learnt parameters: hierarchical softmax, BlackOut,
linear-chain CRF, negative sampling."""
