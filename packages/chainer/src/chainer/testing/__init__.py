"""``chainer.testing``: the testing helpers of autograd, distributions,
links, serializers and training."""
from kusari.autograd.testing import *  # NOQA
from kusari.distributions.testing import distribution_unittest  # NOQA
from kusari.serializers.testing import save_and_load  # NOQA
from kusari.serializers.testing import save_and_load_hdf5  # NOQA
from kusari.serializers.testing import save_and_load_npz  # NOQA
from kusari.links.testing import InitializerArgument  # NOQA
from kusari.links.testing import LinkInitializersTestCase  # NOQA
from kusari.links.testing import LinkTestCase  # NOQA
from kusari.links.testing import LinkTestError  # NOQA
from kusari.training.testing import get_trainer_with_mock_updater  # NOQA
# Chainer's submodules that chainer.testing binds on import, as
# ``testing.training.get_trainer_with_mock_updater`` is written.
from chainer.testing import serializer  # NOQA
from chainer.testing import training  # NOQA
