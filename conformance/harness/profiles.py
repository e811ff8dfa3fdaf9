"""Hypothesis settings of the conformance tests, chosen per run.

``ci``: few examples, derandomized, so CI runs the same cases every time;
``thorough``: many random ones; ``no-shrink``: CI's examples, but a failing
test stops at its first failing example instead of shrinking it, which
takes seconds to minutes and changes nothing where only pass or fail
counts (mutation testing). Applied to the conformance tests only
(:func:`conformance_settings`), so other Hypothesis tests of the same
pytest run keep their own settings; ``no-shrink`` alone also reaches
them (the package tests a mutant's run holds), through Hypothesis's
default profile.
"""
from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import settings

# Large arrays and several draws per example are expected here.
_SLOW_DRAWS = [HealthCheck.too_slow, HealthCheck.data_too_large]
PROFILES = {
    'ci': settings(max_examples=6, deadline=None, derandomize=True,
                   database=None, suppress_health_check=_SLOW_DRAWS),
    'thorough': settings(max_examples=300, deadline=None, print_blob=True,
                         suppress_health_check=_SLOW_DRAWS),
}
# Every phase but shrinking (and the explaining that follows it).
UNSHRUNK = (Phase.explicit, Phase.reuse, Phase.generate)
PROFILES['no-shrink'] = settings(PROFILES['ci'], phases=UNSHRUNK)
_chosen = {'name': 'ci'}


def choose(name):
    """Make ``name`` the profile of the tests imported from now on."""
    if name not in PROFILES:
        raise ValueError(f'choose: unknown profile {name!r}; expected one '
                         f'of {sorted(PROFILES)}')
    _chosen['name'] = name
    if name == 'no-shrink':
        settings.register_profile(name, phases=UNSHRUNK)
        settings.load_profile(name)


def conformance_settings(test):
    """Decorator: apply the chosen profile to a Hypothesis test."""
    return PROFILES[_chosen['name']](test)
