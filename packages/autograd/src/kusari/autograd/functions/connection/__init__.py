"""Neural network connections: linear maps, convolutions, embeddings."""
