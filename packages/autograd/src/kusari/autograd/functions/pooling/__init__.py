"""Pooling functions: max, average, unpooling, ROI and pyramid pooling."""
