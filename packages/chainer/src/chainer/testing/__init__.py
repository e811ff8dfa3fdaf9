"""``chainer.testing``: the testing helpers of autograd and serializers."""
from kusari.autograd.testing import *  # NOQA
from kusari.serializers.testing import save_and_load  # NOQA
from kusari.serializers.testing import save_and_load_hdf5  # NOQA
from kusari.serializers.testing import save_and_load_npz  # NOQA
from kusari.links.testing import InitializerArgument  # NOQA
from kusari.links.testing import LinkInitializersTestCase  # NOQA
from kusari.links.testing import LinkTestCase  # NOQA
from kusari.links.testing import LinkTestError  # NOQA
from kusari.training.testing import get_trainer_with_mock_updater  # NOQA
from chainer.testing import training  # NOQA: F401 (testing.training.*)
