"""Every link record through every check of ``harness.link_checks``, in
float16, float32 and float64, on the ``--device`` device
(``-k 'copy and Linear'`` selects one check of one record)."""
import pytest

from harness.link_checks import CHECKS
from harness.link_record import LINK_DTYPES
from harness.link_record import LINK_RECORDS
# Importing the package registers every link record.
import links  # noqa: F401


def _cases():
    return [pytest.param(check, record, dtype,
                         id=f'{check}-{record.name}-{dtype.name}')
            for check in CHECKS for record in LINK_RECORDS.values()
            if check != 'lazy_initialisation' or record.lazy is not None
            if check != 'static_replay' or not record.device_draws
            for dtype in LINK_DTYPES]


@pytest.mark.parametrize('check, record, dtype', _cases())
def test_link(check, record, dtype, device):
    with device:
        CHECKS[check](record, dtype, device)
