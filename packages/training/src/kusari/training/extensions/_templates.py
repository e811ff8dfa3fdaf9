"""File name templates of the extensions that write into ``trainer.out``
(``'snapshot_iter_{.updater.iteration}'``, ``'log_{epoch}'``)."""
import re
import string

from kusari.serializers import atomic


def could_name(template, name):
    """Whether formatting ``template`` could give ``name``: its text around
    the replacement fields, each field any text."""
    pattern = ''.join(re.escape(text) + ('' if field is None else '.*')
                      for text, field, _, _
                      in string.Formatter().parse(template))
    return re.fullmatch(pattern, name, re.DOTALL) is not None


def remove_abandoned(outdir, template):
    """Remove the temporary files that writes of files ``template`` could
    name left in ``outdir`` when a run was killed; called as training
    starts, before anything writes."""
    atomic.remove_abandoned(outdir, lambda name: could_name(template, name))
