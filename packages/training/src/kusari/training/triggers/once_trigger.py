"""Firing once, at the first call."""
import warnings


class OnceTrigger:
    """Trigger that fires at its first call only.

    Args:
        call_on_resume (bool): Fire once more at the first call after the
            trainer is resumed from a snapshot.
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        """True once the trigger has nothing left to fire."""
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = self._flag_first or self._flag_resumed
        self._flag_first = self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        """Save or load whether the first call is still to come.

        A snapshot from before this trigger saved its state (Chainer's
        older versions saved none) is taken, with a warning, as one whose
        first call is past.
        """
        try:
            self._flag_first = bool(
                serializer('_flag_first', self._flag_first))
        except KeyError:
            warnings.warn(
                'OnceTrigger: the snapshot holds no state of this trigger; '
                'it guesses that its first call is past, which is wrong if '
                'the snapshot was taken before that call', stacklevel=2)
            self._flag_first = False
