"""The messages of BVLC Caffe's ``caffe.proto`` that CaffeFunction reads
and the Caffe exporter writes:
the network, its layers (current and V1), their blobs, and the parameters
of the layer types it emulates, with caffe.proto's field numbers and
defaults. Other fields of a file are skipped when it is read.

The classes behave as protoc's generated ones for what Caffe's models and
Chainer's tests use: ``NetParameter()``, attribute access with defaults,
``layer.add()``, ``bottom.append(name)``, ``HasField``,
``SerializeToString`` and ``MergeFromString`` / ``ParseFromString``.
"""
from kusari.links.layers.caffe._message import Field
from kusari.links.layers.caffe._message import Message

# Phase
TRAIN, TEST = 0, 1


class _Engine:
    DEFAULT, CAFFE, CUDNN = 0, 1, 2


class BlobShape(Message):
    FIELDS = (Field(1, 'dim', 'int64', repeated=True, packed=True),)


class BlobProto(Message):
    FIELDS = (
        Field(7, 'shape', BlobShape),
        Field(5, 'data', 'float', repeated=True, packed=True),
        Field(6, 'diff', 'float', repeated=True, packed=True),
        Field(8, 'double_data', 'double', repeated=True, packed=True),
        Field(9, 'double_diff', 'double', repeated=True, packed=True),
        # The legacy 4-d shape.
        Field(1, 'num', 'int32'),
        Field(2, 'channels', 'int32'),
        Field(3, 'height', 'int32'),
        Field(4, 'width', 'int32'),
    )


class BatchNormParameter(Message):
    FIELDS = (
        Field(1, 'use_global_stats', 'bool'),
        Field(2, 'moving_average_fraction', 'float', default=0.999),
        Field(3, 'eps', 'float', default=1e-5),
    )


class ConcatParameter(Message):
    FIELDS = (
        Field(2, 'axis', 'int32', default=1),
        Field(1, 'concat_dim', 'uint32', default=1),
    )


class ConvolutionParameter(Message, _Engine):
    FIELDS = (
        Field(1, 'num_output', 'uint32'),
        Field(2, 'bias_term', 'bool', default=True),
        Field(3, 'pad', 'uint32', repeated=True),
        Field(4, 'kernel_size', 'uint32', repeated=True),
        Field(6, 'stride', 'uint32', repeated=True),
        Field(18, 'dilation', 'uint32', repeated=True),
        Field(9, 'pad_h', 'uint32'),
        Field(10, 'pad_w', 'uint32'),
        Field(11, 'kernel_h', 'uint32'),
        Field(12, 'kernel_w', 'uint32'),
        Field(13, 'stride_h', 'uint32'),
        Field(14, 'stride_w', 'uint32'),
        Field(5, 'group', 'uint32', default=1),
        Field(15, 'engine', 'enum'),
        Field(16, 'axis', 'int32', default=1),
        Field(17, 'force_nd_im2col', 'bool'),
    )


class DropoutParameter(Message):
    FIELDS = (Field(1, 'dropout_ratio', 'float', default=0.5),)


class EltwiseParameter(Message):
    PROD, SUM, MAX = 0, 1, 2
    FIELDS = (
        Field(1, 'operation', 'enum', default=SUM),
        Field(2, 'coeff', 'float', repeated=True),
        Field(3, 'stable_prod_grad', 'bool', default=True),
    )


class InnerProductParameter(Message):
    FIELDS = (
        Field(1, 'num_output', 'uint32'),
        Field(2, 'bias_term', 'bool', default=True),
        Field(5, 'axis', 'int32', default=1),
        Field(6, 'transpose', 'bool'),
    )


class InputParameter(Message):
    FIELDS = (Field(1, 'shape', BlobShape, repeated=True),)


class LRNParameter(Message, _Engine):
    ACROSS_CHANNELS, WITHIN_CHANNEL = 0, 1
    FIELDS = (
        Field(1, 'local_size', 'uint32', default=5),
        Field(2, 'alpha', 'float', default=1.0),
        Field(3, 'beta', 'float', default=0.75),
        Field(4, 'norm_region', 'enum', default=ACROSS_CHANNELS),
        Field(5, 'k', 'float', default=1.0),
        Field(6, 'engine', 'enum'),
    )


class PoolingParameter(Message, _Engine):
    MAX, AVE, STOCHASTIC = 0, 1, 2
    FIELDS = (
        Field(1, 'pool', 'enum', default=MAX),
        Field(4, 'pad', 'uint32'),
        Field(9, 'pad_h', 'uint32'),
        Field(10, 'pad_w', 'uint32'),
        Field(2, 'kernel_size', 'uint32'),
        Field(5, 'kernel_h', 'uint32'),
        Field(6, 'kernel_w', 'uint32'),
        Field(3, 'stride', 'uint32', default=1),
        Field(7, 'stride_h', 'uint32'),
        Field(8, 'stride_w', 'uint32'),
        Field(11, 'engine', 'enum'),
        Field(12, 'global_pooling', 'bool'),
    )


class ReLUParameter(Message, _Engine):
    FIELDS = (
        Field(1, 'negative_slope', 'float'),
        Field(2, 'engine', 'enum'),
    )


class ReshapeParameter(Message):
    FIELDS = (
        Field(1, 'shape', BlobShape),
        Field(2, 'axis', 'int32'),
        Field(3, 'num_axes', 'int32', default=-1),
    )


class ScaleParameter(Message):
    FIELDS = (
        Field(1, 'axis', 'int32', default=1),
        Field(2, 'num_axes', 'int32', default=1),
        Field(4, 'bias_term', 'bool'),
    )


class SigmoidParameter(Message, _Engine):
    FIELDS = (Field(1, 'engine', 'enum'),)


class SliceParameter(Message):
    FIELDS = (
        Field(3, 'axis', 'int32', default=1),
        Field(2, 'slice_point', 'uint32', repeated=True),
        Field(1, 'slice_dim', 'uint32', default=1),
    )


class SoftmaxParameter(Message, _Engine):
    FIELDS = (
        Field(1, 'engine', 'enum'),
        Field(2, 'axis', 'int32', default=1),
    )


class LayerParameter(Message):
    FIELDS = (
        Field(1, 'name', 'string'),
        Field(2, 'type', 'string'),
        Field(3, 'bottom', 'string', repeated=True),
        Field(4, 'top', 'string', repeated=True),
        Field(10, 'phase', 'enum'),
        Field(5, 'loss_weight', 'float', repeated=True),
        Field(7, 'blobs', BlobProto, repeated=True),
        Field(11, 'propagate_down', 'bool', repeated=True),
        Field(139, 'batch_norm_param', BatchNormParameter),
        Field(104, 'concat_param', ConcatParameter),
        Field(106, 'convolution_param', ConvolutionParameter),
        Field(108, 'dropout_param', DropoutParameter),
        Field(110, 'eltwise_param', EltwiseParameter),
        Field(143, 'input_param', InputParameter),
        Field(117, 'inner_product_param', InnerProductParameter),
        Field(118, 'lrn_param', LRNParameter),
        Field(121, 'pooling_param', PoolingParameter),
        Field(123, 'relu_param', ReLUParameter),
        Field(133, 'reshape_param', ReshapeParameter),
        Field(142, 'scale_param', ScaleParameter),
        Field(124, 'sigmoid_param', SigmoidParameter),
        Field(125, 'softmax_param', SoftmaxParameter),
        Field(126, 'slice_param', SliceParameter),
    )


class V1LayerParameter(Message):
    """A layer of the older format (VGG's files among others): its type
    is an enum of this class (``V1LayerParameter.CONVOLUTION``)."""

    NONE, ACCURACY, BNLL, CONCAT, CONVOLUTION, DATA, DROPOUT = range(7)
    (EUCLIDEAN_LOSS, FLATTEN, HDF5_DATA, HDF5_OUTPUT, IM2COL, IMAGE_DATA,
     INFOGAIN_LOSS, INNER_PRODUCT, LRN, MULTINOMIAL_LOGISTIC_LOSS, POOLING,
     RELU, SIGMOID, SOFTMAX, SOFTMAX_LOSS, SPLIT, TANH, WINDOW_DATA) = \
        range(7, 25)
    (ELTWISE, POWER, SIGMOID_CROSS_ENTROPY_LOSS, HINGE_LOSS, MEMORY_DATA,
     ARGMAX, THRESHOLD, DUMMY_DATA, SLICE, MVN, ABSVAL, SILENCE,
     CONTRASTIVE_LOSS, EXP, DECONVOLUTION) = range(25, 40)
    FIELDS = (
        Field(2, 'bottom', 'string', repeated=True),
        Field(3, 'top', 'string', repeated=True),
        Field(4, 'name', 'string'),
        Field(5, 'type', 'enum'),
        Field(6, 'blobs', BlobProto, repeated=True),
        Field(7, 'blobs_lr', 'float', repeated=True),
        Field(8, 'weight_decay', 'float', repeated=True),
        Field(35, 'loss_weight', 'float', repeated=True),
        Field(9, 'concat_param', ConcatParameter),
        Field(10, 'convolution_param', ConvolutionParameter),
        Field(12, 'dropout_param', DropoutParameter),
        Field(24, 'eltwise_param', EltwiseParameter),
        Field(17, 'inner_product_param', InnerProductParameter),
        Field(18, 'lrn_param', LRNParameter),
        Field(19, 'pooling_param', PoolingParameter),
        Field(30, 'relu_param', ReLUParameter),
        Field(38, 'sigmoid_param', SigmoidParameter),
        Field(39, 'softmax_param', SoftmaxParameter),
        Field(31, 'slice_param', SliceParameter),
    )


class NetParameter(Message):
    FIELDS = (
        Field(1, 'name', 'string'),
        Field(3, 'input', 'string', repeated=True),
        Field(8, 'input_shape', BlobShape, repeated=True),
        Field(4, 'input_dim', 'int32', repeated=True),
        Field(5, 'force_backward', 'bool'),
        Field(7, 'debug_info', 'bool'),
        Field(100, 'layer', LayerParameter, repeated=True),
        Field(2, 'layers', V1LayerParameter, repeated=True),
    )
