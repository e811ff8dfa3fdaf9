"""Fixtures of the dataset tests: a dataset root, a local HTTP server,
and the concrete datasets without their published checksums.

The server (``file_server``) runs on 127.0.0.1 in a thread. It serves
``files`` (URL path -> bytes), records every requested path, and can cut a
reply short: for a path in ``cut_short`` it announces the full length but
sends only half the bytes and closes the connection.
"""
import http.server
import threading
import time

import pytest

from kusari.array import configuration
from kusari.datasets import cifar
from kusari.datasets import fashion_mnist
from kusari.datasets import kuzushiji_mnist
from kusari.datasets import mnist
from kusari.datasets import ptb
from kusari.datasets import svhn

CONCRETE = (cifar, fashion_mnist, kuzushiji_mnist, mnist, ptb, svhn)


class FileServer:
    """Serves ``files`` over HTTP; see the module docstring."""

    def __init__(self):
        self.files = {}
        self.requests = []
        self.cut_short = set()
        self.delay = 0.0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):

            def do_GET(self):
                path = self.path.lstrip('/')
                server.requests.append(path)
                time.sleep(server.delay)
                data = server.files.get(path)
                if data is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                if path in server.cut_short:
                    data = data[:len(data) // 2]
                    self.close_connection = True
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self._httpd = http.server.ThreadingHTTPServer(
            ('127.0.0.1', 0), Handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.01,), daemon=True)

    @property
    def root(self):
        return f'http://127.0.0.1:{self._httpd.server_address[1]}/'

    def url(self, path):
        return self.root + path

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@pytest.fixture
def file_server():
    with FileServer() as server:
        yield server


@pytest.fixture
def dataset_root(tmp_path, monkeypatch):
    """A fresh dataset root for every thread, under ``tmp_path``."""
    root = tmp_path / 'dataset_root'
    monkeypatch.setattr(configuration.global_config, 'dataset_root',
                        str(root))
    return root


@pytest.fixture
def concrete_modules():
    """The modules of the downloaded datasets."""
    return CONCRETE


@pytest.fixture
def unpublished(monkeypatch):
    """Every concrete dataset's files without a published checksum, so
    that small made-up files stand in for them."""
    for module in CONCRETE:
        monkeypatch.setattr(module, 'CHECKSUMS',
                            dict.fromkeys(module.CHECKSUMS))
