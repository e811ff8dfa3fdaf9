"""Caffe emulator: a network read from a Caffe model file (caffemodel),
run with Kusari's links and functions."""
import functools
import warnings

import numpy

from kusari.array import configuration
from kusari.autograd import functions
from kusari.links import link
from kusari.links.layers.caffe import caffe_pb
from kusari.links.layers.connection import convolution_2d
from kusari.links.layers.connection import deconvolution_2d
from kusari.links.layers.connection import linear
from kusari.links.layers.connection import scale
from kusari.links.layers.normalization import batch_normalization

# Setup methods by layer type name, and by V1 layer type enum value.
_type_to_method = {}
_oldname_to_method = {}


def _layer(typ, oldname):
    """Register the decorated method as the setup of the layers of type
    ``typ`` (and of V1 layers of type ``oldname``, unless None)."""
    def decorator(meth):
        _type_to_method[typ] = meth
        if oldname is not None:
            _oldname_to_method[getattr(caffe_pb.V1LayerParameter,
                                       oldname)] = meth
        return meth
    return decorator


class EltwiseCoefficientError(ValueError, AssertionError):
    """An Eltwise SUM layer with coefficients called with another number
    of inputs; an AssertionError too, as Chainer asserts this."""


class CaffeFunction(link.Chain):
    """Caffe emulator based on the model file of Caffe.

    Given a binary protobuf file of a Caffe model (``.caffemodel``), this
    chain builds the network: each layer with parameters becomes a child
    link named after the layer (Convolution2D, Deconvolution2D, Linear,
    BatchNormalization, Scale) holding the model's weights, the other
    layers become functions. Calling it runs a part of the network:

    .. code-block:: python

        func = CaffeFunction('path/to/model.caffemodel')
        y, = func(inputs={'data': x}, outputs=['fc8'])

    The layer types emulated: Concat, Convolution, Deconvolution, Data
    and Input (skipped), Dropout, InnerProduct (axis 1), LRN (across
    channels), Pooling (max and average), ReLU (leaky with a negative
    slope), Reshape, BatchNorm, Eltwise, Scale, Slice, Sigmoid, Softmax
    and SoftmaxWithLoss (along the channels), and Split; V1 layers (the
    older format) of the same kinds too. Another type is skipped with a
    warning; an option the emulation does not support raises
    RuntimeError.

    Args:
        model_path (str): Path to the binary-proto model file of Caffe.

    Attributes:
        forwards (dict): The callable of each layer, by layer name.
        split_map (dict): The blob each Split layer's outputs stand for.
        layers (list): ``(layer name, bottom blob names, top blob
            names)`` of each layer, in the file's order.
    """

    def __init__(self, model_path):
        super().__init__()
        net = caffe_pb.NetParameter()
        with open(model_path, 'rb') as model_file:
            net.MergeFromString(model_file.read())

        self.forwards = {}
        self.split_map = {}
        self.layers = []

        if net.layer:
            layers, methods = net.layer, _type_to_method
        else:  # the V1 format
            layers, methods = net.layers, _oldname_to_method
        for layer in layers:
            meth = methods.get(layer.type)
            if meth:
                meth(self, layer)
            elif net.layer:
                warnings.warn(
                    f'Skip the layer "{layer.name}", since CaffeFunction '
                    f'does not support {layer.type} layer')
            else:
                warnings.warn(
                    f'Skip the layer "{layer.name}", since CaffeFunction '
                    f'does not support it')

    def forward(self, inputs, outputs, disable=(), **kwargs):
        """Execute a sub-network of the network.

        Args:
            inputs (dict): Blob names and the Variables (or arrays) they
                start as.
            outputs (iterable): The blob names whose Variables are
                returned.
            disable (iterable): Names of layers skipped.

        Returns:
            tuple: The Variables of ``outputs``. A layer runs once all
            its inputs are known, in the file's order; ``variables``
            keeps every blob computed.
        """
        if 'train' in kwargs:
            raise ValueError(
                'CaffeFunction: train argument is not supported anymore. '
                'Use chainer.using_config')
        if kwargs:
            raise TypeError(f'CaffeFunction: unexpected keyword argument(s) '
                            f'{", ".join(sorted(kwargs))}')
        variables = dict(inputs)
        disable = set(disable)
        for func_name, bottom, top in self.layers:
            if (func_name in disable or func_name not in self.forwards
                    or any(blob not in variables for blob in bottom)):
                continue
            func = self.forwards[func_name]
            output_vars = func(*(variables[blob] for blob in bottom))
            if not isinstance(output_vars, (tuple, list)):
                output_vars = output_vars,
            for var, name in zip(output_vars, top):
                variables[name] = var
        self.variables = variables
        return tuple(variables[blob] for blob in outputs)

    def _add_layer(self, layer):
        bottom = [self.split_map.get(name, name) for name in layer.bottom]
        self.layers.append((layer.name, bottom, list(layer.top)))

    def _add_link(self, layer, child):
        with self.init_scope():
            setattr(self, layer.name, child)
        self.forwards[layer.name] = _CallChildLink(self, layer.name)
        self._add_layer(layer)

    def _add_function(self, layer, func):
        self.forwards[layer.name] = func
        self._add_layer(layer)

    @_layer('Concat', 'CONCAT')
    def _setup_concat(self, layer):
        param = layer.concat_param
        axis = param.axis
        if axis == 1 and param.concat_dim != 1:
            axis = param.concat_dim
        self._add_function(
            layer, _ListArgumentFunction(functions.concat, axis=axis))

    @_layer('Convolution', 'CONVOLUTION')
    def _setup_convolution(self, layer):
        self._add_link(layer, _grouped_convolution(
            layer, convolution_2d.Convolution2D, transposed=False))

    @_layer('Deconvolution', 'DECONVOLUTION')
    def _setup_deconvolution(self, layer):
        self._add_link(layer, _grouped_convolution(
            layer, deconvolution_2d.Deconvolution2D, transposed=True))

    @_layer('Data', 'DATA')
    def _setup_data(self, layer):
        """Data layers feed Caffe's solver: skipped."""

    @_layer('Input', None)
    def _setup_input(self, layer):
        """Input layers declare the network's inputs, which the call
        gives: nothing to run."""

    @_layer('Dropout', 'DROPOUT')
    def _setup_dropout(self, layer):
        self._add_function(layer, _SingleArgumentFunction(
            functions.dropout, ratio=layer.dropout_param.dropout_ratio))

    @_layer('InnerProduct', 'INNER_PRODUCT')
    def _setup_inner_product(self, layer):
        param = layer.inner_product_param
        if param.axis != 1:
            raise RuntimeError(
                'Non-default axis in InnerProduct is not supported')
        blobs = layer.blobs
        width, height = _get_width(blobs[0]), _get_height(blobs[0])
        func = linear.Linear(width, height, nobias=not param.bias_term)
        func.W.array.ravel()[:] = blob_data(blobs[0])
        if param.bias_term:
            func.b.array[:] = blob_data(blobs[1])
        self._add_link(layer, func)

    @_layer('LRN', 'LRN')
    def _setup_lrn(self, layer):
        param = layer.lrn_param
        if param.norm_region != param.ACROSS_CHANNELS:
            raise RuntimeError('Within-channel LRN is not supported')
        self._add_function(layer, _SingleArgumentFunction(
            functions.local_response_normalization,
            n=param.local_size, k=param.k,
            alpha=param.alpha / param.local_size, beta=param.beta))

    @_layer('Pooling', 'POOLING')
    def _setup_pooling(self, layer):
        param = layer.pooling_param
        ksize = _get_ksize(param)
        stride = _get_stride(param)
        pad = _get_pad(param)
        if param.pool == param.MAX:
            func = functions.max_pooling_2d
        elif param.pool == param.AVE:
            func = functions.average_pooling_2d
        else:
            raise RuntimeError('Stochastic pooling is not supported')
        if param.global_pooling and not ksize:
            # The kernel covers the whole input map, whatever its size.
            self._add_function(layer, _SingleArgumentFunction(
                functools.partial(_global_pooling, func),
                stride=stride, pad=pad))
        else:
            self._add_function(layer, _SingleArgumentFunction(
                func, ksize, stride=stride, pad=pad))

    @_layer('ReLU', 'RELU')
    def _setup_relu(self, layer):
        slope = layer.relu_param.negative_slope
        if slope != 0:
            func = _SingleArgumentFunction(functions.leaky_relu,
                                           slope=slope)
        else:
            func = functions.relu
        self._add_function(layer, func)

    @_layer('Reshape', None)
    def _setup_reshape(self, layer):
        self._add_function(layer, _SingleArgumentFunction(
            functions.reshape, shape=list(layer.reshape_param.shape.dim)))

    @_layer('BatchNorm', None)
    def _setup_batchnorm(self, layer):
        blobs = layer.blobs
        param = layer.batch_norm_param
        size = int(blobs[0].shape.dim[0])  # the channels of the mean
        func = batch_normalization.BatchNormalization(
            size, decay=param.moving_average_fraction, eps=param.eps,
            use_gamma=False, use_beta=False)
        func.avg_mean.ravel()[:] = blob_data(blobs[0])
        func.avg_var.ravel()[:] = blob_data(blobs[1])
        if len(blobs) >= 3:
            # Caffe stores the statistics times a factor (0: never
            # updated, the statistics are then zero).
            factor = float(blob_data(blobs[2])[0])
            inverse = 0.0 if factor == 0 else 1.0 / factor
            func.avg_mean *= inverse
            func.avg_var *= inverse
        with self.init_scope():
            setattr(self, layer.name, func)
        call = _CallChildLink(self, layer.name)
        if param.use_global_stats:
            self._add_function(
                layer, _SingleArgumentFunctionTestMode(call, finetune=False))
        else:
            self._add_function(
                layer, _SingleArgumentFunction(call, finetune=False))

    @_layer('Eltwise', 'ELTWISE')
    def _setup_eltwise(self, layer):
        # stable_prod_grad is not supported.
        param = layer.eltwise_param
        self._add_function(layer, _EltwiseFunction(
            param.operation, list(param.coeff) or None))

    @_layer('Scale', None)
    def _setup_scale(self, layer):
        # Not supported: a negative axis, num_axes, filler, bias_filler.
        blobs = layer.blobs
        param = layer.scale_param
        bias_term = param.bias_term
        if len(layer.bottom) == 1:
            # W is learnt: the first blob.
            func = scale.Scale(param.axis, tuple(blobs[0].shape.dim),
                               bias_term)
            func.W.array.ravel()[:] = blob_data(blobs[0])
            bias_blob = blobs[1] if bias_term else None
        else:
            # W is the second input.
            shape = tuple(blobs[0].shape.dim) if bias_term else None
            func = scale.Scale(param.axis, bias_term=bias_term,
                               bias_shape=shape)
            bias_blob = blobs[0] if bias_term else None
        if bias_blob is not None:
            func.bias.b.array.ravel()[:] = blob_data(bias_blob)
        self._add_link(layer, func)

    @_layer('Slice', 'SLICE')
    def _setup_slice(self, layer):
        param = layer.slice_param
        if param.HasField('axis'):
            axis = param.axis
        elif param.HasField('slice_dim'):
            axis = param.slice_dim
        else:
            axis = 1
        if param.slice_point:
            indices_or_sections = list(param.slice_point)
        else:
            indices_or_sections = len(layer.top)
        self._add_function(layer, _SingleArgumentFunction(
            functions.split_axis, indices_or_sections=indices_or_sections,
            axis=axis))

    @_layer('Softmax', 'SOFTMAX')
    def _setup_softmax(self, layer):
        param = layer.softmax_param
        _expect_channel_axis(param)
        if param.engine == param.CAFFE:
            func = _SingleArgumentFunctionWithCudnn(False, functions.softmax)
        elif param.engine == param.CUDNN:
            func = _SingleArgumentFunctionWithCudnn(True, functions.softmax)
        else:
            func = functions.softmax
        self._add_function(layer, func)

    @_layer('Sigmoid', 'SIGMOID')
    def _setup_sigmoid(self, layer):
        self._add_function(layer, functions.sigmoid)

    @_layer('SoftmaxWithLoss', 'SOFTMAX_LOSS')
    def _setup_softmax_with_loss(self, layer):
        _expect_channel_axis(layer.softmax_param)
        self._add_function(layer, functions.softmax_cross_entropy)

    @_layer('Split', 'SPLIT')
    def _setup_split(self, layer):
        for top in layer.top:
            self.split_map[top] = layer.bottom[0]


def _expect_channel_axis(param):
    if param.axis != 1:
        raise RuntimeError('Softmax along non-channel axis is not supported')


def _grouped_convolution(layer, cls, transposed):
    """A (de)convolution link holding the layer's weights. Caffe's grouped
    filters fill the diagonal blocks of a full filter (zero elsewhere):
    ``W[out_group, in_group]`` (``W[in_group, out_group]`` for a
    deconvolution), as Chainer builds it."""
    blobs = layer.blobs
    param = layer.convolution_param
    group = param.group
    num, channels = _get_num(blobs[0]), _get_channels(blobs[0])
    if transposed:
        n_in, n_out = num, channels * group
    else:
        n_in, n_out = channels * group, num
    func = cls(n_in, n_out, _get_ksize(param), _get_stride(param),
               _get_pad(param), nobias=not param.bias_term,
               dilate=_single(param.dilation, 1))
    W = func.W.array
    W[...] = 0
    data = blob_data(blobs[0])
    part_size = data.size // group
    for i in range(group):
        in_slice = slice(i * n_in // group, (i + 1) * n_in // group)
        out_slice = slice(i * n_out // group, (i + 1) * n_out // group)
        block = W[in_slice, out_slice] if transposed \
            else W[out_slice, in_slice]
        block[...] = data[i * part_size:(i + 1) * part_size].reshape(
            block.shape)
    if param.bias_term:
        func.b.array[:] = blob_data(blobs[1])
    return func


def blob_data(blob):
    """The data of a BlobProto, flat: its float data (its double data if
    it has no float data)."""
    if len(blob.data) or not len(blob.double_data):
        return numpy.asarray(blob.data)
    return numpy.asarray(blob.double_data)


def _global_pooling(func, x, stride, pad):
    return func(x, x.shape[2:], stride=stride, pad=pad)


def _get_ksize(param):
    if param.kernel_h > 0:
        return param.kernel_h, param.kernel_w
    return _single(param.kernel_size, 0)


def _get_stride(param):
    if param.stride_h > 0:
        return param.stride_h, param.stride_w
    return _single(param.stride, 1)


def _get_pad(param):
    if param.pad_h > 0 or param.pad_w > 0:
        return param.pad_h, param.pad_w
    return _single(param.pad, 0)


def _single(value, default):
    """A geometry option as the link or function takes it: an int field
    as is; a repeated one as its one value, ``default`` when empty, else
    all its values."""
    if isinstance(value, int):
        return value
    if not len(value):
        return default
    if len(value) == 1:
        return value[0]
    return list(value)


def _get_num(blob):
    return blob.num if blob.num > 0 else blob.shape.dim[0]


def _get_channels(blob):
    return blob.channels if blob.channels > 0 else blob.shape.dim[1]


def _get_height(blob):
    return _legacy_or_shape(blob, blob.height, 0, 2)


def _get_width(blob):
    return _legacy_or_shape(blob, blob.width, 1, 3)


def _legacy_or_shape(blob, legacy, axis_2d, axis_4d):
    """The extent of a weight blob: its legacy dimension, else axis
    ``axis_2d`` of a 2-d shape or ``axis_4d`` of a 4-d one."""
    if legacy > 0:
        return legacy
    dims = blob.shape.dim
    if len(dims) == 2:
        return dims[axis_2d]
    if len(dims) == 4:
        return dims[axis_4d]
    raise RuntimeError(f'{len(dims)}-dimensional array is not supported')


class _SingleArgumentFunction:
    def __init__(self, func, *args, **kwargs):
        self.func = func
        self.args = args
        self.kwargs = kwargs

    def __call__(self, x):
        return self.func(x, *self.args, **self.kwargs)


class _SingleArgumentFunctionTestMode(_SingleArgumentFunction):
    def __call__(self, x):
        with configuration.using_config('train', False):
            return super().__call__(x)


class _ListArgumentFunction:
    def __init__(self, func, **kwargs):
        self.func = func
        self.kwargs = kwargs

    def __call__(self, *xs):
        return self.func(xs, **self.kwargs)


class _SingleArgumentFunctionWithCudnn(_SingleArgumentFunction):
    def __init__(self, use_cudnn, func, *args, **kwargs):
        super().__init__(func, *args, **kwargs)
        self.use_cudnn = 'always' if use_cudnn else 'never'

    def __call__(self, x):
        with configuration.using_config('use_cudnn', self.use_cudnn):
            return super().__call__(x)


class _CallChildLink:
    def __init__(self, caffe_func, name):
        self.name = name
        self.caffe_func = caffe_func

    def __call__(self, *xs, **kwargs):
        return self.caffe_func[self.name](*xs, **kwargs)


class _EltwiseFunction:
    def __init__(self, operation, coeffs=None):
        self.operation = operation
        self.coeffs = coeffs

    def __call__(self, *xs):
        operation = self.operation
        if operation == caffe_pb.EltwiseParameter.PROD:
            return functools.reduce(lambda x, y: x * y, xs),
        if operation == caffe_pb.EltwiseParameter.SUM:
            coeffs = self.coeffs
            if coeffs is not None:
                if len(xs) != len(coeffs):
                    raise EltwiseCoefficientError(
                        f'Eltwise: {len(coeffs)} coefficients for '
                        f'{len(xs)} inputs')
                xs = [x * coeff for x, coeff in zip(xs, coeffs)]
            return functools.reduce(lambda x, y: x + y, xs),
        if operation == caffe_pb.EltwiseParameter.MAX:
            return functools.reduce(functions.maximum, xs),
        raise ValueError('Invalid EltwiseParameter.EltwiseOp value.')
