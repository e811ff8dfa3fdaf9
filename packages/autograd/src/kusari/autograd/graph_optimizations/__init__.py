"""Graph optimizations: static subgraphs replayed from a recorded schedule
(:mod:`.static_graph`)."""
from kusari.autograd.graph_optimizations import static_graph  # NOQA
from kusari.autograd.graph_optimizations import static_graph_utilities  # NOQA
