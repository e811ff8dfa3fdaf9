"""Learnable connections: Linear, the convolutions and the other layers
that wrap a connection function with their parameters."""
