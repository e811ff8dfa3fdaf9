"""Chainer's API on Kusari: ``import chainer`` as in Chainer v7.

This package holds almost no code: it maps Chainer's names and module paths
onto the Kusari packages (see ``_aliases``).
"""
import os
import sys

from chainer import _aliases

_aliases.install()

from kusari.array.backend import get_array_types  # NOQA: E402
from kusari.array.backend import get_device  # NOQA: E402
from kusari.array.backend import using_device  # NOQA: E402
from kusari.array.configuration import config  # NOQA: E402
from kusari.array.configuration import get_dtype  # NOQA: E402
from kusari.array.configuration import global_config  # NOQA: E402
from kusari.array.configuration import mixed16  # NOQA: E402
from kusari.array.configuration import using_config  # NOQA: E402
from kusari.array.initializers import Initializer  # NOQA: E402
from kusari.array.device_resident import DeviceResident  # NOQA: E402
from kusari.autograd import FunctionNode  # NOQA: E402
from kusari.autograd import Parameter  # NOQA: E402
from kusari.autograd import Variable  # NOQA: E402
from kusari.autograd import as_array  # NOQA: E402
from kusari.autograd import as_variable  # NOQA: E402
from kusari.autograd import backward  # NOQA: E402
from kusari.autograd import force_backprop_mode  # NOQA: E402
from kusari.autograd import grad  # NOQA: E402
from kusari.autograd import no_backprop_mode  # NOQA: E402
from kusari.autograd.function import Function  # NOQA: E402
from kusari.autograd.function import FunctionAdapter  # NOQA: E402
from kusari.autograd.function_hook import FunctionHook  # NOQA: E402
from kusari.autograd.graph_optimizations.static_graph import (  # NOQA: E402
    static_code, static_graph)
from kusari.distributions import Distribution  # NOQA: E402
from kusari.distributions import cross_entropy  # NOQA: E402
from kusari.distributions import kl_divergence  # NOQA: E402
from kusari.distributions import register_kl  # NOQA: E402
from kusari.links import Chain  # NOQA: E402
from kusari.links import ChainList  # NOQA: E402
from kusari.links import DictSummary  # NOQA: E402
from kusari.links import Link  # NOQA: E402
from kusari.links import LinkHook  # NOQA: E402
from kusari.links import Reporter  # NOQA: E402
from kusari.links import Sequential  # NOQA: E402
from kusari.links import Summary  # NOQA: E402
from kusari.links import get_current_reporter  # NOQA: E402
from kusari.links import report  # NOQA: E402
from kusari.links import report_scope  # NOQA: E402
from kusari.serializers import AbstractSerializer  # NOQA: E402
from kusari.training import GradientMethod  # NOQA: E402
from kusari.training import Optimizer  # NOQA: E402
from kusari.training import UpdateRule  # NOQA: E402
from kusari.serializers import Deserializer  # NOQA: E402
from kusari.serializers import Serializer  # NOQA: E402

from chainer import backend  # NOQA: E402,F401
from chainer import backends  # NOQA: E402,F401
from chainer import computational_graph  # NOQA: E402,F401
from chainer import cuda  # NOQA: E402,F401
from chainer import configuration  # NOQA: E402,F401
from chainer import dataset  # NOQA: E402,F401
from chainer import datasets  # NOQA: E402,F401
from chainer import device_resident  # NOQA: E402,F401
from chainer import distribution  # NOQA: E402,F401
from chainer import distributions  # NOQA: E402,F401
from chainer import function  # NOQA: E402,F401
from chainer import function_hook  # NOQA: E402,F401
from chainer import function_hooks  # NOQA: E402,F401
from chainer import function_node  # NOQA: E402,F401
from chainer import functions  # NOQA: E402,F401
from chainer import gradient_check  # NOQA: E402,F401
from chainer import graph_optimizations  # NOQA: E402,F401
from chainer import initializer  # NOQA: E402,F401
from chainer import initializers  # NOQA: E402,F401
from chainer import iterators  # NOQA: E402,F401
from chainer import link  # NOQA: E402,F401
from chainer import link_hook  # NOQA: E402,F401
from chainer import link_hooks  # NOQA: E402,F401
from chainer import links  # NOQA: E402,F401
from chainer import optimizer  # NOQA: E402,F401
from chainer import optimizer_hooks  # NOQA: E402,F401
from chainer import optimizers  # NOQA: E402,F401
from chainer import reporter  # NOQA: E402,F401
from chainer import sequential  # NOQA: E402,F401
from chainer import serializer  # NOQA: E402,F401
from chainer import serializers  # NOQA: E402,F401
from chainer import training  # NOQA: E402,F401
from chainer import utils  # NOQA: E402,F401
from chainer import variable  # NOQA: E402,F401
from chainer import warnings  # NOQA: E402,F401
from chainer._runtime_info import print_runtime_info  # NOQA: E402,F401
from chainer.utils.experimental import read_flag_from  # NOQA: E402
import chainerx  # NOQA: E402,F401 (chainer.chainerx, as in Chainer)
import chainer.functions.rnn  # NOQA: E402,F401 (Chainer's functions bind it)
import chainer.training.util  # NOQA: E402,F401 (from chainer.training import util)

from chainer._version import __version__  # NOQA: E402,F401

disable_experimental_feature_warning = bool(int(os.environ.get(
    'CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING', '0')))
"""Whether :func:`chainer.utils.experimental` stays silent (set it, or the
environment variable ``CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING=1``)."""
# chainer.utils.experimental() reads that flag here, where users set it.
read_flag_from(sys.modules[__name__])
del read_flag_from


def is_debug():
    """Whether debug mode is on in this thread (``config.debug``)."""
    return bool(config.debug)


def set_debug(debug):
    """Turn debug mode on or off in this thread."""
    config.debug = debug
