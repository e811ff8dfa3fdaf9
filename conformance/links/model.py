"""The pre-trained model architectures: written reasons instead of
records."""
from harness.link_record import no_link_spec

for _name in ('VGG16Layers', 'VGG19Layers', 'GoogLeNet', 'ResNet50Layers',
              'ResNet101Layers', 'ResNet152Layers'):
    no_link_spec(
        _name, 'tens of millions of parameters: a numerical gradient of '
        'each is out of reach; built from Convolution2D, Linear and '
        'BatchNormalization, which have records, and checked by '
        'packages/links/tests/test_links_model.py (layers, shapes, NPZ '
        'loading)')
