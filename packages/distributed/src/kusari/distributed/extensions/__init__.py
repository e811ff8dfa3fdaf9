"""Trainer extensions for multi-process training."""
from kusari.distributed.evaluator import GenericMultiNodeEvaluator  # NOQA
from kusari.distributed.extensions.allreduce_persistent import (  # NOQA
    AllreducePersistent)
from kusari.distributed.extensions.checkpoint import (  # NOQA
    create_multi_node_checkpointer)
from kusari.distributed.extensions.multi_node_early_stopping_trigger import (  # NOQA
    MultiNodeEarlyStoppingTrigger)
from kusari.distributed.extensions.multi_node_snapshot import (  # NOQA
    multi_node_snapshot)
from kusari.distributed.extensions.observation_aggregator import (  # NOQA
    ObservationAggregator)
