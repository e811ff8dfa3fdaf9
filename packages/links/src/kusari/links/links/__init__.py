"""Layers: the concrete links (``chainer.links``), Linear, Convolution2D
and the others, each in its own module."""
from kusari.links.classifier import Classifier  # NOQA
from kusari.links.links.connection.bias import Bias  # NOQA
from kusari.links.links.connection.bilinear import Bilinear  # NOQA
from kusari.links.links.connection.convolution_2d import Convolution2D  # NOQA
from kusari.links.links.connection.convolution_nd import Convolution1D  # NOQA
from kusari.links.links.connection.convolution_nd import Convolution3D  # NOQA
from kusari.links.links.connection.convolution_nd import ConvolutionND  # NOQA
from kusari.links.links.connection.deconvolution_2d import Deconvolution2D  # NOQA
from kusari.links.links.connection.deconvolution_nd import Deconvolution1D  # NOQA
from kusari.links.links.connection.deconvolution_nd import Deconvolution3D  # NOQA
from kusari.links.links.connection.deconvolution_nd import DeconvolutionND  # NOQA
from kusari.links.links.connection.deformable_convolution_2d import DeformableConvolution2D  # NOQA
from kusari.links.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D  # NOQA
from kusari.links.links.connection.dilated_convolution_2d import DilatedConvolution2D  # NOQA
from kusari.links.links.connection.embed_id import EmbedID  # NOQA
from kusari.links.links.connection.highway import Highway  # NOQA
from kusari.links.links.connection.inception import Inception  # NOQA
from kusari.links.links.connection.linear import Linear  # NOQA
from kusari.links.links.connection.local_convolution_2d import LocalConvolution2D  # NOQA
from kusari.links.links.connection.mlp_convolution_2d import MLPConvolution2D  # NOQA
from kusari.links.links.connection.parameter import Parameter  # NOQA
from kusari.links.links.connection.scale import Scale  # NOQA
