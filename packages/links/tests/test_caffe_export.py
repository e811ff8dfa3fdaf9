"""The Caffe exporter: models written as prototxt and caffemodel, read
back by CaffeFunction, compute what the models compute."""
import os
import warnings

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.links import link
from kusari.links import layers as L
from kusari.links.layers.caffe import CaffeFunction
from kusari.links.layers.caffe import _message
from kusari.links.layers.caffe import caffe_pb
from kusari.links.layers.caffe import export


class ConvNet(link.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(4, 6, 3, stride=2, pad=1, groups=2)
            self.bn = L.BatchNormalization(6)
            self.deconv = L.Deconvolution2D(6, 3, 2, stride=2, nobias=True)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv(x)), 3, stride=1, pad=1)
        h = F.leaky_relu(self.bn(h), slope=0.2)
        h = F.average_pooling_2d(self.deconv(h), 2)
        h = F.sigmoid(h) + h
        return F.softmax(self.fc(F.reshape(h, (len(h), -1))))


def _round_trip(model, x, tmp_path):
    export.export(model, (x,), str(tmp_path), graph_name='net')
    with warnings.catch_warnings():
        # Every layer is read, the Input layer too (not skipped with a
        # warning).
        warnings.simplefilter('error')
        imported = CaffeFunction(str(tmp_path / 'chainer_model.caffemodel'))
    with configuration.using_config('train', False):
        expected = model(x).array
        y, = imported(inputs={'data': x},
                      outputs=[imported.layers[-1][0]])
    return expected, y.array


def test_a_convnet_read_back_computes_the_same(tmp_path):
    model = ConvNet()
    model.bn.avg_mean[:] = numpy.linspace(-1, 1, 6)
    model.bn.avg_var[:] = numpy.linspace(0.5, 2, 6)
    model.bn.gamma.array[:] = numpy.linspace(0.5, 1.5, 6)
    model.bn.beta.array[:] = numpy.linspace(-0.3, 0.3, 6)
    x = numpy.random.RandomState(0).uniform(
        -1, 1, (2, 4, 8, 8)).astype(numpy.float32)
    expected, y = _round_trip(model, x, tmp_path)
    assert y.shape == (2, 5)
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_the_files_describe_the_network(tmp_path):
    model = ConvNet()
    x = numpy.zeros((1, 4, 8, 8), numpy.float32)
    export.export(model, (x,), str(tmp_path), graph_name='net')
    net = caffe_pb.NetParameter()
    net.ParseFromString(
        (tmp_path / 'chainer_model.caffemodel').read_bytes())
    assert net.name == 'net'
    assert [layer.type for layer in net.layer] == [
        'Input', 'Convolution', 'ReLU', 'Pooling', 'BatchNorm', 'Scale',
        'ReLU', 'Deconvolution', 'Pooling', 'Sigmoid', 'Eltwise',
        'Reshape', 'InnerProduct', 'Softmax']
    assert list(net.layer[0].input_param.shape[0].dim) == [1, 4, 8, 8]
    conv = net.layer[1]
    assert list(conv.bottom) == ['data']
    assert conv.convolution_param.group == 2
    assert list(conv.blobs[0].shape.dim) == [6, 2, 3, 3]
    numpy.testing.assert_array_equal(
        numpy.asarray(conv.blobs[0].data), model.conv.W.array.ravel())
    assert len(net.layer[7].blobs) == 1  # the deconvolution has no bias

    text = (tmp_path / 'chainer_model.prototxt').read_text()
    assert text.startswith('name: "net"\n')
    assert 'type: "Convolution"' in text
    assert 'negative_slope: 0.2' in text
    assert 'blobs' not in text


def test_without_params_only_the_prototxt_is_written(tmp_path):
    x = numpy.zeros((1, 3), numpy.float32)
    export.export(L.Linear(3, 2), (x,), str(tmp_path), export_params=False)
    assert os.listdir(tmp_path) == ['chainer_model.prototxt']


def test_a_batch_normalization_of_the_batch_keeps_its_statistics(tmp_path):
    class Model(link.Chain):
        def forward(self, x):
            return F.batch_normalization(
                x, numpy.full(3, 2, numpy.float32),
                numpy.ones(3, numpy.float32))

    x = numpy.random.RandomState(1).normal(
        size=(4, 3, 2, 2)).astype(numpy.float32)
    export.export(Model(), (x,), str(tmp_path))
    net = caffe_pb.NetParameter()
    net.ParseFromString(
        (tmp_path / 'chainer_model.caffemodel').read_bytes())
    assert net.layer[1].batch_norm_param.use_global_stats is False
    numpy.testing.assert_allclose(numpy.asarray(net.layer[1].blobs[0].data),
                                  x.mean(axis=(0, 2, 3)), rtol=1e-5)
    imported = CaffeFunction(str(tmp_path / 'chainer_model.caffemodel'))
    with configuration.using_config('train', False):
        y, = imported(inputs={'data': x}, outputs=[imported.layers[-1][0]])
    expected = F.batch_normalization(
        x, numpy.full(3, 2, numpy.float32), numpy.ones(3, numpy.float32))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-4,
                                  atol=1e-5)


def test_an_unsupported_function_is_named(tmp_path):
    class Model(link.Chain):
        def forward(self, x):
            return F.tanh(x)

    x = numpy.zeros((1, 3), numpy.float32)
    with pytest.raises(ValueError, match='the function Tanh .* has no '
                                         'Caffe layer'):
        export.export(Model(), (x,), str(tmp_path))


def test_an_input_not_computed_from_the_arguments_is_refused(tmp_path):
    class Model(link.Chain):
        def forward(self, x):
            return x + numpy.ones(x.shape, x.dtype)

    x = numpy.zeros((1, 3), numpy.float32)
    with pytest.raises(ValueError, match='an input of Add is neither'):
        export.export(Model(), (x,), str(tmp_path))


def test_a_pooling_caffe_sizes_otherwise_is_refused(tmp_path):
    class Model(link.Chain):
        def forward(self, x):
            return F.average_pooling_2d(x, 2, stride=2)

    x = numpy.zeros((1, 1, 5, 5), numpy.float32)  # Caffe pools to 3x3
    with pytest.raises(ValueError, match='AveragePooling2D with an output '
                                         "of another size than Caffe's"):
        export.export(Model(), (x,), str(tmp_path))


def test_the_text_format_quotes_and_nests():
    net = caffe_pb.NetParameter(name='a "b"\n')
    net.layer.add(name='l').input_param.shape.add(dim=[2])
    assert _message.to_text(net) == (
        'name: "a \\"b\\"\\012"\n'
        'layer {\n'
        '  name: "l"\n'
        '  input_param {\n'
        '    shape {\n'
        '      dim: 2\n'
        '    }\n'
        '  }\n'
        '}\n')


@pytest.mark.parametrize('func, size, message', [
    (lambda x, W: F.convolution_2d(x, W, stride=2, cover_all=True), 5,
     'Convolution2DFunction with cover_all=True'),
    (lambda x, W: F.deconvolution_2d(x, W, stride=2, outsize=(9, 9)), 4,
     r'Deconvolution2DFunction with outsize=\(9, 9\)'),
])
def test_a_convolution_caffe_sizes_otherwise_is_refused(
        tmp_path, func, size, message):
    class Model(link.Chain):
        def forward(self, x):
            return func(x, numpy.ones((1, 1, 2, 2), numpy.float32))

    x = numpy.zeros((1, 1, size, size), numpy.float32)
    with pytest.raises(ValueError, match=message):
        export.export(Model(), (x,), str(tmp_path))


def test_a_dilated_convolution_read_back_computes_the_same(tmp_path):
    model = L.Convolution2D(2, 3, 3, pad=2, dilate=2)
    x = numpy.random.RandomState(2).uniform(
        -1, 1, (1, 2, 6, 6)).astype(numpy.float32)
    expected, y = _round_trip(model, x, tmp_path)
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_a_weight_computed_in_the_graph_is_kept_as_computed(tmp_path):
    class Model(link.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.fc = L.Linear(3, 2)

        def forward(self, x):
            return F.linear(x, self.fc.W * 2, self.fc.b)

    model = Model()
    x = numpy.random.RandomState(3).uniform(
        -1, 1, (4, 3)).astype(numpy.float32)
    expected, y = _round_trip(model, x, tmp_path)
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
