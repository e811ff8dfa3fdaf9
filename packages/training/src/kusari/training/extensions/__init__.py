"""Trainer extensions: evaluation, reporting, optimizer control,
snapshots."""
from kusari.training.extensions._snapshot import (  # NOQA
    DamagedSnapshotWarning)
from kusari.training.extensions._snapshot import snapshot  # NOQA
from kusari.training.extensions._snapshot import snapshot_object  # NOQA
from kusari.training.extensions.computational_graph import DumpGraph  # NOQA
from kusari.training.extensions.computational_graph import dump_graph  # NOQA
from kusari.training.extensions.evaluator import Evaluator  # NOQA
from kusari.training.extensions.fail_on_nonnumber import (  # NOQA
    FailOnNonNumber)
from kusari.training.extensions.log_report import LogReport  # NOQA
from kusari.training.extensions.micro_average import MicroAverage  # NOQA
from kusari.training.extensions.parameter_statistics import (  # NOQA
    ParameterStatistics)
from kusari.training.extensions.plot_report import PlotReport  # NOQA
from kusari.training.extensions.print_report import PrintReport  # NOQA
from kusari.training.extensions.progress_bar import ProgressBar  # NOQA
from kusari.training.extensions.shifts import (  # NOQA
    ExponentialShift, InverseShift, LinearShift, MultistepShift,
    PolynomialShift, StepShift, WarmupShift)
from kusari.training.extensions import snapshot_writers  # NOQA
from kusari.training.extensions.value_observation import observe_lr  # NOQA
from kusari.training.extensions.value_observation import (  # NOQA
    observe_value)
from kusari.training.extensions.variable_statistics_plot import (  # NOQA
    VariableStatisticsPlot)
from kusari.training.extensions.variable_unchain import (  # NOQA
    unchain_variables)
