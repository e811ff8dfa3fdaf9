"""Activation layers with learnt parameters: PReLU, Swish, Maxout."""
