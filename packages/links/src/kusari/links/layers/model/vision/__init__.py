"""ImageNet architectures (VGG, GoogLeNet, ResNet) that load converted
pre-trained weights from NPZ files."""
