"""The optimizers (``chainer.optimizers``), each with its update rule."""
from kusari.training.optimizers.ada_delta import AdaDelta  # NOQA
from kusari.training.optimizers.ada_delta import AdaDeltaRule  # NOQA
from kusari.training.optimizers.ada_grad import AdaGrad  # NOQA
from kusari.training.optimizers.ada_grad import AdaGradRule  # NOQA
from kusari.training.optimizers.adam import AdaBound  # NOQA
from kusari.training.optimizers.adam import Adam  # NOQA
from kusari.training.optimizers.adam import AdamRule  # NOQA
from kusari.training.optimizers.adam import AdamW  # NOQA
from kusari.training.optimizers.adam import AMSBound  # NOQA
from kusari.training.optimizers.adam import AMSGrad  # NOQA
from kusari.training.optimizers.corrected_momentum_sgd import \
    CorrectedMomentumSGD  # NOQA
from kusari.training.optimizers.corrected_momentum_sgd import \
    CorrectedMomentumSGDRule  # NOQA
from kusari.training.optimizers.momentum_sgd import MomentumSGD  # NOQA
from kusari.training.optimizers.momentum_sgd import MomentumSGDRule  # NOQA
from kusari.training.optimizers.msvag import MSVAG  # NOQA
from kusari.training.optimizers.msvag import MSVAGRule  # NOQA
from kusari.training.optimizers.nesterov_ag import NesterovAG  # NOQA
from kusari.training.optimizers.nesterov_ag import NesterovAGRule  # NOQA
from kusari.training.optimizers.rmsprop import RMSprop  # NOQA
from kusari.training.optimizers.rmsprop import RMSpropRule  # NOQA
from kusari.training.optimizers.rmsprop_graves import RMSpropGraves  # NOQA
from kusari.training.optimizers.rmsprop_graves import \
    RMSpropGravesRule  # NOQA
from kusari.training.optimizers.sgd import SGD  # NOQA
from kusari.training.optimizers.sgd import SGDRule  # NOQA
from kusari.training.optimizers.smorms3 import SMORMS3  # NOQA
from kusari.training.optimizers.smorms3 import SMORMS3Rule  # NOQA
