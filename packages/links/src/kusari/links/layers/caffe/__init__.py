"""Import of Caffe models (``chainer.links.caffe``): CaffeFunction builds
a network from a caffemodel file. The file is read by a pure-Python
reader of the protocol buffer messages of Caffe's ``caffe.proto``
(:mod:`~kusari.links.layers.caffe.caffe_pb`); neither Caffe nor protobuf
is needed."""
from kusari.links.layers.caffe.caffe_function import CaffeFunction  # NOQA
