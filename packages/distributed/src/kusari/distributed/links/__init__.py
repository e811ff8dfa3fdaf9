"""Links for multi-process models."""
from kusari.distributed.links.batch_normalization import (  # NOQA
    MultiNodeBatchNormalization)
from kusari.distributed.links.create_mnbn_model import (  # NOQA
    create_mnbn_model)
from kusari.distributed.links.multi_node_chain_list import (  # NOQA
    MultiNodeChainList)
