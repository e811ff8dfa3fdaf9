"""Models: the Classifier and the pre-trained vision architectures."""
