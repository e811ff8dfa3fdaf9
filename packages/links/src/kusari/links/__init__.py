"""Kusari links: Link, Chain, ChainList, Sequential, link hooks, the
reporter, and the Classifier model. The layers are in
:mod:`kusari.links.layers`."""
from kusari.array import parts as _parts
from kusari.links import link
from kusari.links.classifier import Classifier  # NOQA
from kusari.links.link import Chain  # NOQA
from kusari.links.link import ChainList  # NOQA
from kusari.links.link import Link  # NOQA
from kusari.links.link_hook import LinkHook  # NOQA
from kusari.links.reporter import DictSummary  # NOQA
from kusari.links.reporter import Reporter  # NOQA
from kusari.links.reporter import Summary  # NOQA
from kusari.links.reporter import get_current_reporter  # NOQA
from kusari.links.reporter import report  # NOQA
from kusari.links.reporter import report_scope  # NOQA
from kusari.links.sequential import Sequential  # NOQA

link.register_sequential(Sequential)

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-links')
