"""Export of a model's computational graph as a Caffe network
(``chainer.exporters.caffe``): the network definition as a prototxt
(protobuf text) and, with the parameters, as a binary caffemodel, both
written with the messages of :mod:`~kusari.links.layers.caffe.caffe_pb`.
"""
import os

import numpy

from kusari.array import configuration
from kusari.array import cuda
from kusari.autograd import function_hook
from kusari.autograd import variable
from kusari.autograd.utils import conv
from kusari.links.layers.caffe import _message
from kusari.links.layers.caffe import caffe_pb

PROTOTXT = 'chainer_model.prototxt'
CAFFEMODEL = 'chainer_model.caffemodel'


def export(model, args, directory=None, export_params=True,
           graph_name='Graph'):
    """(Experimental) Export a computational graph as Caffe format.

    The model is called once with ``args`` (with ``train`` off and
    backprop on); the graph recorded from the inputs to the output is
    written as ``chainer_model.prototxt`` and, if ``export_params``,
    ``chainer_model.caffemodel`` (the same network with the parameters as
    the layers' blobs) into ``directory``. The input is the blob
    ``data`` (``data_0``, ``data_1``... for several), declared by an
    Input layer; every other blob is named after the layer writing it.

    The functions written: Convolution2DFunction,
    Deconvolution2DFunction, LinearFunction (InnerProduct),
    AveragePooling2D, MaxPooling2D (Pooling), BatchNormalization and
    FixedBatchNormalization (BatchNorm followed by Scale), ReLU,
    LeakyReLU (ReLU with a negative slope), Softmax, Sigmoid, Add (Eltwise
    sum) and Reshape. Another function raises ValueError naming it.

    Args:
        model (~chainer.Link or callable): The model to export.
        args (tuple or list of ~chainer.Variable or arrays): The model's
            arguments.
        directory (str): Where the files are written (the current
            directory if None).
        export_params (bool): Whether the caffemodel with the parameters
            is written too.
        graph_name (str): The name of the network.
    """
    if not isinstance(args, (tuple, list)):
        args = (args,)
    args = [arg if isinstance(arg, variable.Variable)
            else variable.Variable(arg) for arg in args]
    recorder = _Recorder()
    with configuration.using_config('train', False), \
            configuration.using_config('enable_backprop', True), recorder:
        outputs = model(*args)
    if isinstance(outputs, dict):
        outputs = list(outputs.values())
    elif not isinstance(outputs, (tuple, list)):
        outputs = [outputs]
    net = _Builder(recorder.in_data).build(args, outputs, graph_name)

    directory = os.getcwd() if directory is None else directory
    text = caffe_pb.NetParameter()
    text.MergeFrom(net)
    for layer in text.layer:
        layer.ClearField('blobs')
    with open(os.path.join(directory, PROTOTXT), 'w') as f:
        f.write(_message.to_text(text))
    if export_params:
        with open(os.path.join(directory, CAFFEMODEL), 'wb') as f:
            f.write(net.SerializeToString())


class _Recorder(function_hook.FunctionHook):
    """Keeps the input arrays of every function applied, by the function
    (parameters and constants among them, which the graph's nodes need
    not retain)."""

    name = 'kusari.links.caffe.export'

    def __init__(self):
        self.in_data = {}

    def forward_postprocess(self, function, in_data):
        self.in_data[function] = in_data


class _Builder:
    """Turns the recorded graph into a NetParameter."""

    def __init__(self, in_data):
        self._in_data = in_data
        self._blob_names = {}  # VariableNode -> blob name
        self._counts = {}
        self.net = caffe_pb.NetParameter()

    def build(self, args, outputs, graph_name):
        net = self.net
        net.name = graph_name
        for i, arg in enumerate(args):
            name = 'data' if len(args) == 1 else f'data_{i}'
            layer = net.layer.add(name=name, type='Input', top=[name])
            layer.input_param.shape.add(dim=list(arg.shape))
            self._blob_names[arg.node] = name
        for func in _functions(outputs):
            converter = _CONVERTERS.get(_chainer_name(func))
            if converter is None:
                raise ValueError(
                    f'Caffe export: the function {_chainer_name(func)} '
                    f'({type(func).__module__}.{type(func).__qualname__}) '
                    f'has no Caffe layer; the supported functions are '
                    f'{", ".join(sorted(_CONVERTERS))}')
            converter(self, func)
        return net

    def add_layer(self, func, type, suffix='', bottom=None):
        """A new layer for ``func`` reading its data inputs (the blobs
        ``bottom`` if given); its top, named as the layer, becomes the
        name of the function's output unless ``suffix`` makes it an
        intermediate layer of the function."""
        chainer_name = _chainer_name(func)
        count = self._counts.get((chainer_name, suffix), 0)
        self._counts[chainer_name, suffix] = count + 1
        name = f'{chainer_name}_{count}{suffix}'
        if bottom is None:
            bottom = [self._bottom_name(func, node)
                      for node in _data_inputs(func)]
        layer = self.net.layer.add(name=name, type=type, top=[name],
                                   bottom=bottom)
        if not suffix:
            for ref in func.outputs:
                node = ref()
                if node is not None:
                    self._blob_names[node] = name
        return layer

    def _bottom_name(self, func, node):
        name = self._blob_names.get(node)
        if name is None:
            raise ValueError(
                f'Caffe export: an input of {_chainer_name(func)} is '
                f'neither an argument of the model nor computed from one')
        return name

    def array(self, func, index):
        """The array of the ``index``-th input of ``func``, on the CPU."""
        return cuda.to_cpu(self._in_data[func][index])

    def add_blob(self, layer, array):
        blob = layer.blobs.add()
        blob.shape.dim.extend(array.shape)
        # The values go in as one array, not value by value.
        blob.data._merge(numpy.asarray(array, numpy.float32).ravel())


def _functions(outputs):
    """The functions of the graph of ``outputs``, in an order where each
    comes after those computing its inputs. The functions computing a
    parameter (a weight hook's) are not layers: the parameter's value is
    what the layer keeps."""
    found = {}
    stack = [getattr(out, 'creator_node', None) for out in outputs]
    while stack:
        func = stack.pop()
        if func is None or func in found:
            continue
        found[func] = len(found)
        stack.extend(node.creator_node for node in _data_inputs(func))
    return sorted(found, key=lambda func: (func.rank, -found[func]))


# The functions whose inputs after the first are parameters.
_PARAMETRIZED = ('Convolution2DFunction', 'Deconvolution2DFunction',
                 'LinearFunction', 'BatchNormalization',
                 'FixedBatchNormalization')


def _data_inputs(func):
    """The input nodes of ``func`` that are blobs of the network."""
    if _chainer_name(func) in _PARAMETRIZED:
        return func.inputs[:1]
    return func.inputs


# Kusari's N-d pooling functions, named as Chainer names their 2-d ones.
_POOLING_2D_NAMES = {'AveragePoolingND': 'AveragePooling2D',
                     'MaxPoolingND': 'MaxPooling2D'}


def _chainer_name(func):
    name = type(func).__name__
    window = getattr(func, 'window', None)
    if name in _POOLING_2D_NAMES and window is not None and \
            window.ndim == 2:
        return _POOLING_2D_NAMES[name]
    return name


def _unsupported(func, what):
    return ValueError(f'Caffe export: {_chainer_name(func)} with {what} '
                      f'has no Caffe layer')


def _set_geometry(param, ksize, stride, pad):
    param.kernel_h, param.kernel_w = ksize
    param.stride_h, param.stride_w = stride
    param.pad_h, param.pad_w = pad


def _convolution(builder, func):
    transposed = _chainer_name(func) == 'Deconvolution2DFunction'
    layer = builder.add_layer(
        func, 'Deconvolution' if transposed else 'Convolution')
    W = builder.array(func, 1)
    ksize = W.shape[2:]
    dims = func.inputs[0].shape[2:]
    # Caffe sizes the output as Chainer does by default: refuse the
    # options giving another size.
    if transposed:
        if func.outsize is not None and tuple(func.outsize) != _outsize(
                conv.get_deconv_outsize, func, dims, ksize, False):
            raise _unsupported(func, f'outsize={func.outsize}')
    elif func.cover_all and _outsize(
            conv.get_conv_outsize, func, dims, ksize, True) != _outsize(
            conv.get_conv_outsize, func, dims, ksize, False):
        raise _unsupported(func, 'cover_all=True')
    param = layer.convolution_param
    param.num_output = W.shape[1] * func.groups if transposed else W.shape[0]
    _set_geometry(param, ksize, func.stride, func.pad)
    if any(d != 1 for d in func.dilate):
        param.dilation.extend(func.dilate)
    param.group = func.groups
    param.bias_term = len(func.inputs) == 3
    builder.add_blob(layer, W)
    if param.bias_term:
        builder.add_blob(layer, builder.array(func, 2))


def _outsize(get_outsize, func, dims, ksize, cover_all):
    """The spatial output size of the (de)convolution ``func`` of inputs
    ``dims`` with ``cover_all``."""
    return tuple(
        get_outsize(d, k, s, p, cover_all, dilate)
        for d, k, s, p, dilate in zip(dims, ksize, func.stride, func.pad,
                                      func.dilate))


def _linear(builder, func):
    layer = builder.add_layer(func, 'InnerProduct')
    W = builder.array(func, 1)
    param = layer.inner_product_param
    param.num_output = W.shape[0]
    param.bias_term = len(func.inputs) == 3
    builder.add_blob(layer, W)
    if param.bias_term:
        builder.add_blob(layer, builder.array(func, 2))


def _pooling(builder, func):
    window = func.window
    dims = func.inputs[0].shape[2:]
    if window.outsize(dims) != _caffe_pooled_size(window, dims):
        raise _unsupported(
            func, f'an output of another size than Caffe\'s (ksize='
                  f'{window.ksize}, stride={window.stride}, pad='
                  f'{window.pad}, input {dims})')
    layer = builder.add_layer(func, 'Pooling')
    param = layer.pooling_param
    param.pool = param.MAX if _chainer_name(func) == 'MaxPooling2D' \
        else param.AVE
    _set_geometry(param, window.ksize, window.stride, window.pad)


def _caffe_pooled_size(window, dims):
    """The pooled lengths Caffe gives (the last window may reach past the
    input, but starts inside it or its first padding)."""
    sizes = []
    for d, k, s, p in zip(dims, window.ksize, window.stride, window.pad):
        size = -(-(d + 2 * p - k) // s) + 1
        if p and (size - 1) * s >= d + p:
            size -= 1
        sizes.append(size)
    return tuple(sizes)


def _batch_normalization(builder, func):
    """Caffe's BatchNorm normalizes with a mean and variance (stored, or
    of the batch), a Scale layer applies gamma and beta."""
    x = func.inputs[0]
    if tuple(func.key_axes) != (1,) or len(x.shape) < 2:
        raise _unsupported(func, 'another axis than the channels')
    fixed = _chainer_name(func) == 'FixedBatchNormalization'
    norm = builder.add_layer(func, 'BatchNorm', suffix='_bn')
    norm.batch_norm_param.use_global_stats = fixed
    norm.batch_norm_param.eps = func.eps
    if fixed:
        mean, var = builder.array(func, 3), builder.array(func, 4)
    else:
        # The statistics of the traced batch (Caffe recomputes them).
        mean, var = numpy.ravel(func.mean), numpy.ravel(func.var)
    builder.add_blob(norm, mean)
    builder.add_blob(norm, var)
    builder.add_blob(norm, numpy.ones(1))  # the factor of the statistics
    scale = builder.add_layer(func, 'Scale', bottom=list(norm.top))
    scale.scale_param.axis = 1
    scale.scale_param.bias_term = True
    builder.add_blob(scale, builder.array(func, 1))
    builder.add_blob(scale, builder.array(func, 2))


def _activation(type):
    def convert(builder, func):
        builder.add_layer(func, type)
    return convert


def _leaky_relu(builder, func):
    layer = builder.add_layer(func, 'ReLU')
    layer.relu_param.negative_slope = func.slope


def _softmax(builder, func):
    layer = builder.add_layer(func, 'Softmax')
    layer.softmax_param.axis = func.axis


def _add(builder, func):
    layer = builder.add_layer(func, 'Eltwise')
    layer.eltwise_param.operation = caffe_pb.EltwiseParameter.SUM


def _reshape(builder, func):
    layer = builder.add_layer(func, 'Reshape')
    layer.reshape_param.shape.dim.extend(func.shape)


_CONVERTERS = {
    'Convolution2DFunction': _convolution,
    'Deconvolution2DFunction': _convolution,
    'LinearFunction': _linear,
    'AveragePooling2D': _pooling,
    'MaxPooling2D': _pooling,
    'BatchNormalization': _batch_normalization,
    'FixedBatchNormalization': _batch_normalization,
    'ReLU': _activation('ReLU'),
    'LeakyReLU': _leaky_relu,
    'Softmax': _softmax,
    'Sigmoid': _activation('Sigmoid'),
    'Add': _add,
    'Reshape': _reshape,
}
