"""Serializers and datasets, for any Chainer-like ``chainer`` module: run
by ``test_data.py`` with Kusari's drop-in and by ``oracle_data.py`` with
Chainer 7.8.1.

Only NumPy is imported here (Pillow and h5py are reached through
``chainer``). Every scenario returns a flat dict of arrays (``name ->
array``) that both sides write and the test compares: ``saved/...`` the
contents of the files each side saves, ``files/...`` their bytes (so that
the other side can load them), ``loaded/...`` what loading a set of files
gives, ``datasets/...`` what the datasets return. An error is recorded as
the name of its type.
"""
import os
import pickle

import numpy

# Loading variants: name -> (model kind, file, load_npz keyword
# arguments); each loads into a fresh model whose values are all -1.
LOADS = {
    'plain': ('model', 'model', {}),
    'path': ('model', 'wrapped', {'path': 'inner/'}),
    'path_no_slash': ('model', 'wrapped', {'path': 'inner'}),
    'strict_false': ('bigger', 'model', {'strict': False}),
    'missing_key': ('bigger', 'model', {}),
    'shape_mismatch': ('wider', 'model', {}),
    'ignore_name': ('model', 'model', {'ignore_names': 'l1/W'}),
    'ignore_names_list': ('model', 'model', {'ignore_names': [
        'l1/b', lambda key: key.startswith('seq/1/')]}),
    'uninitialized': ('model', 'lazy', {}),
}
# The same for HDF5: load_hdf5, or HDF5Deserializer with arguments.
HDF5_LOADS = {
    'model': ('model', 'model', {}),
    'lazy': ('model', 'lazy', {}),
    'bigger': ('bigger', 'model', {}),
    'wider': ('wider', 'model', {}),
    'lenient': ('bigger', 'model', {'strict': False}),
    'grouped': ('model', 'grouped', {'group': 'inner'}),
}
SAVES = {'model': True, 'wrapped': True, 'lazy': True,
         'uncompressed': False}

_UNCHECKED_SLICE = ('Chainer 7.8.1 bug: a row slice with a step does not '
                    'check an index against its length, and answers from '
                    'rows outside it; Kusari raises IndexError')
_PATHS = ('DictionarySerializer(path=...) keeps the path as given in '
          'Chainer (\'pre\' writes prex, \'/pre/\' writes /pre/x); Kusari '
          'makes it pre/ on purpose (kusari.serializers._paths), as load_npz')
# Results kept out of the compared set: key prefix -> reason.
KNOWN_DIFFERENCES = {
    'datasets/concat/negative': 'Chainer\'s ConcatenatedDataset raises '
    'IndexError for any negative index; Kusari\'s datasets take negative '
    'indexes as Python sequences do',
    'datasets/tabular/array/keys': 'Chainer names an unnamed column '
    '_<id(data)>, different in every run; Kusari names it _0',
    'datasets/tabular/callable/out_of_range': 'Chainer 7.8.1 bug: a '
    'callable column is called with any index, 7 and -8 included; '
    'Kusari raises IndexError',
    'datasets/tabular/slice_rows/out_of_range': _UNCHECKED_SLICE,
    'datasets/tabular/column_index/out_of_range': _UNCHECKED_SLICE,
    'loaded/npz/path_no_slash': 'load_npz(path=\'inner\'): Chainer '
    'reads keys innerl1/W... (KeyError); Kusari adds the missing trailing '
    'slash on purpose (kusari.serializers._paths)',
    'errors/corrupt_npz': 'Chainer unpickles a file that is not a zip '
    '(UnpicklingError); Kusari never unpickles and raises its '
    'SerializationError, an OSError (documented in load_npz)',
    'errors/bad_ignore_names': 'Chainer raises ValueError when the first '
    'key is read; Kusari checks the argument up front (TypeError)',
    'errors/broadcast': 'Chainer\'s numpy.copyto broadcasts a stored array '
    'of another, broadcastable shape; Kusari requires the same shape '
    '(ValueError, as both raise when it does not broadcast)',
    'errors/hdf5_float_into_int': 'h5py casts float32 into an int32 '
    'parameter under Chainer\'s load_hdf5; Kusari refuses a cast across '
    'kinds (TypeError), as both do for NPZ',
    'errors/dict_path/bare': _PATHS,
    'errors/dict_path/leading': _PATHS,
    'loaded/hdf5/wider': 'h5py raises TypeError for a shape mismatch under '
    'Chainer\'s load_hdf5; Kusari raises ValueError, as both do for NPZ',
}


def shared_inputs(seed=0):
    """The values of the model and the data of the datasets."""
    rng = numpy.random.RandomState(seed)
    return {
        'l1_W': rng.uniform(-1, 1, (2, 3)).astype(numpy.float32),
        'l1_b': rng.uniform(-1, 1, 2).astype(numpy.float32),
        'seq_W': rng.uniform(-1, 1, (2, 2)).astype(numpy.float64),
        'gamma': rng.uniform(0.5, 1.5, 2).astype(numpy.float32),
        'mean': rng.uniform(-1, 1, 2).astype(numpy.float32),
        'x': rng.uniform(-1, 1, (7, 3)).astype(numpy.float32),
        't': rng.randint(0, 5, 7).astype(numpy.int32),
        'image': rng.randint(0, 256, (3, 4, 5)).astype(numpy.uint8),
    }


# Serializers.

def _model(chainer, kind, inputs=None):
    """A Chain with a nested ChainList, persistents (an int, a float,
    None, BatchNormalization's statistics) and a lazy Linear; values from
    ``inputs``, or all -1 when None. ``bigger`` has one more parameter,
    ``wider`` a wider first layer."""
    L = chainer.links

    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 3 if kind == 'wider' else 2)
                self.seq = chainer.ChainList(
                    L.Linear(2, 2, nobias=True), L.BatchNormalization(2))
                self.lazy = L.Linear(None, 2)
                if kind == 'bigger':
                    self.extra = chainer.Parameter(
                        numpy.full(2, -1, numpy.float32))
            self.add_persistent('count', 0)
            self.add_persistent('rate', 0.0)
            self.add_persistent('nothing', None)

    model = Model()
    if inputs is None:
        for param in model.params(include_uninit=False):
            param.array[...] = -1
        bn = model.seq[1]
        bn.avg_mean[...] = bn.avg_var[...] = -1
        model.count, model.rate = -1, -1.0
        return model
    model.l1.W.array[...] = inputs['l1_W']
    model.l1.b.array[...] = inputs['l1_b']
    model.seq[0].W.array[...] = inputs['seq_W']
    bn = model.seq[1]
    bn.gamma.array[...] = inputs['gamma']
    bn.avg_mean[...] = inputs['mean']
    bn.avg_var[...] = inputs['gamma'] * 2
    bn.N = 5
    model.count, model.rate = 7, 0.25
    if kind != 'lazy':
        model.lazy(numpy.ones((1, 4), numpy.float32))
        model.lazy.W.array[...] = numpy.arange(8).reshape(2, 4)
        model.lazy.b.array[...] = [3, 4]
    return model


def _saved_object(chainer, kind, inputs):
    model = _model(chainer, kind, inputs)
    if kind != 'wrapped':
        return model
    wrapper = chainer.Chain()
    with wrapper.init_scope():
        wrapper.inner = model
    return wrapper


def _stored(value):
    """An array as it compares: object arrays (a stored None) by repr."""
    if value.dtype == object:
        return numpy.str_(repr(value[()]))
    return value


def save_files(chainer, inputs, workdir):
    """Save the model with ``save_npz`` (and ``save_hdf5``): the keys and
    values of each file and its bytes."""
    results = {}
    for name, compression in SAVES.items():
        kind = 'model' if name == 'uncompressed' else name
        path = os.path.join(workdir, f'{name}.npz')
        chainer.serializers.save_npz(
            path, _saved_object(chainer, kind, inputs), compression)
        with numpy.load(path, allow_pickle=True) as saved:
            for key in saved.files:
                results[f'saved/npz/{name}/{key}'] = _stored(saved[key])
        with open(path, 'rb') as stream:
            data = stream.read()
        results[f'files/npz/{name}'] = numpy.frombuffer(data, numpy.uint8)
        results[f'compressed/npz/{name}'] = numpy.bool_(
            _is_compressed(path))
    if _has_h5py():
        results.update(_save_hdf5(chainer, inputs, workdir))
    return results


def _is_compressed(path):
    import zipfile
    with zipfile.ZipFile(path) as archive:
        return all(info.compress_type == zipfile.ZIP_DEFLATED
                   for info in archive.infolist())


def _has_h5py():
    try:
        import h5py  # NOQA: F401 (only its presence matters)
    except ImportError:
        return False
    return True


def _save_hdf5(chainer, inputs, workdir):
    """save_hdf5 of the model and the lazy one, and HDF5Serializer of the
    model into the group ``inner`` of a file (``grouped``)."""
    import h5py
    S = chainer.serializers
    results = {}
    for name in ('model', 'lazy', 'grouped'):
        path = os.path.join(workdir, f'{name}.h5')
        model = _model(chainer, 'lazy' if name == 'lazy' else 'model',
                       inputs)
        if name == 'grouped':
            with h5py.File(path, 'w') as file:
                S.HDF5Serializer(file.create_group('inner')).save(model)
        else:
            S.save_hdf5(path, model)
        with h5py.File(path, 'r') as saved:
            keys = []
            saved.visititems(lambda key, item: keys.append(key) if isinstance(
                item, h5py.Dataset) else None)
            for key in keys:
                results[f'saved/hdf5/{name}/{key}'] = _stored(
                    numpy.asarray(saved[key][()]))
        with open(path, 'rb') as stream:
            data = stream.read()
        results[f'files/hdf5/{name}'] = numpy.frombuffer(data, numpy.uint8)
    return results


def _load_hdf5(chainer, path, obj, group=None, **kwargs):
    """load_hdf5, or HDF5Deserializer on ``group`` of the file with the
    keyword arguments ``kwargs``."""
    if group is None and not kwargs:
        chainer.serializers.load_hdf5(path, obj)
        return
    import h5py
    with h5py.File(path, 'r') as file:
        chainer.serializers.HDF5Deserializer(
            file[group] if group else file, **kwargs).load(obj)


def _state(model, prefix):
    """Every value of a loaded model (a None persistent as a string)."""
    results = {}
    for name, param in model.namedparams():
        results[f'{prefix}{name}'] = (
            numpy.str_('uninitialized') if param.array is None
            else param.array.copy())
    persistents = (('', model), ('/seq/1', model.seq[1]))
    for path, link in persistents:
        for name in sorted(link._persistent):
            value = getattr(link, name)
            results[f'{prefix}{path}/{name}'] = (
                numpy.str_('None') if value is None
                else numpy.array(value))
            results[f'{prefix}{path}/{name}/type'] = numpy.str_(
                type(value).__name__)
    return results


def load_files(chainer, files, workdir):
    """Load the files ``files`` (``'npz/model' -> bytes``, as
    ``save_files`` writes them) into fresh models in every way of
    LOADS: the loaded values or the error type."""
    paths = {}
    for key, data in files.items():
        fmt, name = key.split('/')
        path = os.path.join(workdir, f'given_{name}.{fmt}')
        with open(path, 'wb') as stream:
            stream.write(numpy.asarray(data, numpy.uint8).tobytes())
        paths[key] = path
    results = {}
    for case, (kind, name, kwargs) in LOADS.items():
        results.update(_load(chainer, f'loaded/npz/{case}', kind, lambda m: (
            chainer.serializers.load_npz(paths[f'npz/{name}'], m, **kwargs))))
    for case, (kind, name, kwargs) in HDF5_LOADS.items():
        if f'hdf5/{name}' in paths:
            results.update(_load(
                chainer, f'loaded/hdf5/{case}', kind, lambda m: _load_hdf5(
                    chainer, paths[f'hdf5/{name}'], m, **kwargs)))
    return results


def _load(chainer, prefix, kind, load):
    model = _model(chainer, kind)
    try:
        load(model)
    except Exception as error:  # NOQA: B902 (its type is the result)
        return {f'{prefix}/error': _error_name(error)}
    return _state(model, prefix)


def dictionary_run(chainer, inputs):
    """DictionarySerializer and NpzDeserializer on plain dicts."""
    S = chainer.serializers
    model = _model(chainer, 'model', inputs)
    target = {}
    S.DictionarySerializer(target)['root'].save(model)
    results = {f'dict/saved/{key}': _stored(numpy.asarray(value))
               for key, value in target.items()}
    results['dict/keys'] = numpy.array(sorted(target))
    loaded = _model(chainer, 'model')
    S.NpzDeserializer(target, path='root/').load(loaded)
    results.update(_state(loaded, 'dict/loaded'))
    raw = {'a': numpy.arange(3.0), 'n': numpy.array(4),
           'f': numpy.array(2.5)}
    deserializer = S.NpzDeserializer(raw)
    out = numpy.zeros(3)
    deserializer('a', out)
    results['dict/array'] = out.copy()
    results['dict/int'] = numpy.array(deserializer('n', 0))
    results['dict/int_type'] = numpy.str_(type(deserializer('n', 0)).__name__)
    results['dict/none'] = numpy.array(deserializer('n', None))
    for name, call in (
            ('missing', lambda: deserializer('b', out)),
            ('shape', lambda: deserializer('a', numpy.zeros(4))),
            ('float_to_int', lambda: deserializer('f', 0)),
            ('array_to_int', lambda: deserializer('n', 0) + deserializer(
                'a', 0.0)),
            ('float_to_float32', lambda: deserializer('f', numpy.float32(
                1))),
            ('int_to_float', lambda: deserializer('n', 1.5)),
            ('lenient_missing', lambda: S.NpzDeserializer(
                raw, strict=False)('b', 5))):
        results[f'dict/error/{name}'] = _outcome(call)
    return results


def _outcome(call):
    """The value ``call()`` returns, or the name of what it raises."""
    try:
        value = call()
    except Exception as error:  # NOQA: B902 (its type is the result)
        return _error_name(error)
    return numpy.str_(repr(_plain(value)))


def _error_name(error):
    """The first built-in class of an error's type: what a caller can
    catch on both sides (Kusari's SerializationError is an OSError)."""
    return numpy.str_(next(cls.__name__ for cls in type(error).__mro__
                           if cls.__module__ == 'builtins'))


def _plain(value):
    """A value as Python lists, dicts and numbers (same on both sides)."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return numpy.asarray(value).tolist()


def error_run(chainer, workdir):
    """What loading raises for missing, corrupt and mismatched data, and
    the keys of DictionarySerializer's ``path``."""
    S, L = chainer.serializers, chainer.links
    path = os.path.join(workdir, 'linear.npz')
    S.save_npz(path, L.Linear(2, 3))
    corrupt = os.path.join(workdir, 'corrupt.bin')
    with open(corrupt, 'wb') as stream:
        stream.write(b'neither a zip nor HDF5')
    missing = os.path.join(workdir, 'missing.npz')
    stored = {'a': numpy.ones(2), 'b': numpy.ones(1), 'n': numpy.array(3)}

    def load(key, value):
        return S.NpzDeserializer(stored)(key, value)

    cases = {
        'missing_file': lambda: S.load_npz(missing, L.Linear(2, 3)),
        'corrupt_npz': lambda: S.load_npz(corrupt, L.Linear(2, 3)),
        'bad_ignore_names': lambda: S.load_npz(
            path, L.Linear(2, 3), ignore_names=3),
        'float_into_int_array': lambda: load('a', numpy.zeros(2, 'i')),
        'float64_into_float32': lambda: load('a', numpy.zeros(2, 'f')),
        'broadcast': lambda: load('b', numpy.zeros(2)),
        'int_into_bool': lambda: load('n', False),
        'int_into_float': lambda: load('n', 0.5),
    }
    if _has_h5py():
        h5 = os.path.join(workdir, 'linear.h5')
        S.save_hdf5(h5, L.Linear(2, 3), compression=0)
        cases.update({
            'missing_hdf5_file': lambda: S.load_hdf5(missing, L.Linear(
                2, 3)),
            'corrupt_hdf5': lambda: S.load_hdf5(corrupt, L.Linear(2, 3)),
            'hdf5_float_into_int': lambda: S.load_hdf5(h5, _int_linear(L)),
        })
    results = {f'errors/{name}': _outcome(call)
               for name, call in cases.items()}
    for name, prefix in (('bare', 'pre'), ('slash', 'pre/'),
                         ('leading', '/pre/')):
        serializer = S.DictionarySerializer(path=prefix)
        serializer['a']('x', 1)
        serializer('/y', 2)
        results[f'errors/dict_path/{name}'] = numpy.array(
            sorted(serializer.target))
    return results


def _int_linear(L):
    link = L.Linear(2, 3)
    link.W.array = numpy.zeros((3, 2), numpy.int32)
    return link


# Datasets.

def _put(results, key, example):
    """Store an example (an array, a tuple or a dict of them)."""
    if isinstance(example, tuple):
        for i, item in enumerate(example):
            _put(results, f'{key}/{i}', item)
    elif isinstance(example, dict):
        for name in sorted(example):
            _put(results, f'{key}/{name}', example[name])
    elif isinstance(example, list):
        results[f'{key}/len'] = numpy.array(len(example))
        for i, item in enumerate(example):
            _put(results, f'{key}/{i}', item)
    else:
        results[key] = numpy.asarray(example)
        results[f'{key}/type'] = numpy.str_(type(example).__name__)


def _walk(results, key, dataset):
    """Every example of ``dataset`` and the error of indexing past it."""
    results[f'{key}/len'] = numpy.array(len(dataset))
    for i in range(len(dataset)):
        _put(results, f'{key}/{i}', dataset[i])
    for index in (len(dataset), -len(dataset) - 1):
        results[f'{key}/out_of_range/{index}'] = _outcome(
            lambda: dataset[index])


def split_run(chainer, inputs):
    """The split and cross-validation functions, on a TupleDataset."""
    D = chainer.datasets
    data = D.TupleDataset(inputs['x'], inputs['t'])
    splits = {
        'split_3': D.split_dataset(data, 3),
        'split_order': D.split_dataset(data, 2, order=[6, 5, 4, 3, 2, 1, 0]),
        'split_random': D.split_dataset_random(data, 4, seed=3),
        'split_n': D.split_dataset_n(data, 3),
        'split_n_random': D.split_dataset_n_random(data, 2, seed=5),
        'cross': D.get_cross_validation_datasets(data, 3),
        'cross_order': D.get_cross_validation_datasets(
            data, 2, order=[1, 0, 3, 2, 5, 4, 6]),
        'cross_random': D.get_cross_validation_datasets_random(
            data, 3, seed=1),
    }
    results = {}
    for name, parts in splits.items():
        results[f'datasets/{name}/n'] = numpy.array(len(parts))
        for i, part in enumerate(parts):
            if isinstance(part, tuple):
                for j, side in enumerate(part):
                    _walk(results, f'datasets/{name}/{i}/{j}', side)
            else:
                _walk(results, f'datasets/{name}/{i}', part)
    for name, call in (
            ('split_too_big', lambda: D.split_dataset(data, 8)),
            ('split_negative', lambda: D.split_dataset(data, -1)),
            ('split_bad_order', lambda: D.split_dataset(
                data, 2, order=[0, 1])),
            ('split_n_too_big', lambda: D.split_dataset_n(data, 8))):
        results[f'datasets/error/{name}'] = _outcome(lambda: len(call()))
    return results


INDEXES = {
    'int': 2, 'negative': -1, 'slice': slice(1, 6, 2),
    'reverse': slice(None, None, -2), 'list': [4, 0, 4],
    'array': numpy.array([3, 1]), 'empty': slice(5, 2), 'out': 7,
    'out_negative': -8,
}


def _index(results, key, dataset):
    for name, index in INDEXES.items():
        try:
            value = dataset[index]
        except Exception as error:  # NOQA: B902 (its type is the result)
            results[f'{key}/{name}/error'] = _error_name(error)
        else:
            _put(results, f'{key}/{name}', value)


def container_run(chainer, inputs):
    """TupleDataset, DictDataset, SubDataset, ConcatenatedDataset and
    TransformDataset, indexed in every form."""
    D = chainer.datasets
    x, t = inputs['x'], inputs['t']
    datasets = {
        'tuple': D.TupleDataset(x, t),
        'tuple_one': D.TupleDataset(x),
        'dict': D.DictDataset(x=x, t=t),
        'sub': D.SubDataset(x, 1, 6, order=[6, 5, 4, 3, 2, 1, 0]),
        'sub_plain': D.SubDataset(D.TupleDataset(x, t), 2, 7),
        'concat': D.ConcatenatedDataset(x[:3], x[3:4], x[4:]),
        'transform': D.TransformDataset(
            D.TupleDataset(x, t), lambda e: (e[0] * 2, -e[1])),
    }
    results = {}
    for name, dataset in datasets.items():
        results[f'datasets/{name}/len'] = numpy.array(len(dataset))
        _index(results, f'datasets/{name}', dataset)
    for name, call in (
            ('tuple_lengths', lambda: D.TupleDataset(x, t[:3])),
            ('dict_lengths', lambda: D.DictDataset(x=x, t=t[:3])),
            ('tuple_empty', lambda: D.TupleDataset()),
            ('sub_range', lambda: D.SubDataset(x, 0, 9)),
            ('sub_order', lambda: D.SubDataset(x, 0, 2, order=[0, 1]))):
        results[f'datasets/error/{name}'] = _outcome(lambda: len(call()))
    return results


TEXT = ['first line\n', 'second\n', '\n', 'fourth line\n']
TEXT_B = ['a\n', 'b\n', 'c\n', 'd\n']


def file_run(chainer, inputs, workdir):
    """TextDataset and PickleDataset over files written here."""
    D = chainer.datasets
    paths = []
    for name, lines in (('a.txt', TEXT), ('b.txt', TEXT_B)):
        paths.append(os.path.join(workdir, name))
        with open(paths[-1], 'w', encoding='utf-8') as stream:
            stream.write(''.join(lines))
    results = {}
    texts = {
        'one': D.TextDataset(paths[0]),
        'two': D.TextDataset(paths),
        'filtered': D.TextDataset(paths, filter_func=lambda a, b: a != '\n'),
    }
    for name, dataset in texts.items():
        _walk(results, f'datasets/text/{name}', dataset)
    results['datasets/error/text_lengths'] = _outcome(lambda: len(
        D.TextDataset([paths[0], _short_file(workdir)])))
    pickled = os.path.join(workdir, 'data.pkl')
    with D.open_pickle_dataset_writer(pickled) as writer:
        for i in range(4):
            writer.write((inputs['x'][i], int(inputs['t'][i]), f'#{i}'))
    with D.open_pickle_dataset(pickled) as dataset:
        _walk(results, 'datasets/pickle', dataset)
        _put(results, 'datasets/pickle/slice', dataset[1:3])
    with open(pickled, 'rb') as stream:
        dataset = D.PickleDataset(stream)
        results['datasets/pickle_stream/2'] = numpy.asarray(dataset[2][0])
    results['datasets/pickle/protocol'] = numpy.array(_protocol(pickled))
    return results


def _short_file(workdir):
    path = os.path.join(workdir, 'short.txt')
    with open(path, 'w', encoding='utf-8') as stream:
        stream.write('only\n')
    return path


def _protocol(path):
    """The pickle protocol of the first record."""
    with open(path, 'rb') as stream:
        head = stream.read(2)
    return head[1] if head[:1] == pickle.PROTO else 0


def _write_images(inputs, workdir):
    """PNG files: RGB, grayscale and a 16-bit grayscale."""
    from PIL import Image
    image = inputs['image']  # (3, 4, 5)
    names = []
    rgb = Image.fromarray(numpy.ascontiguousarray(image.transpose(1, 2, 0)))
    for i, picture in enumerate((
            rgb, Image.fromarray(image[0]),
            Image.fromarray(image[1].astype(numpy.uint16) * 200))):
        names.append(f'img{i}.png')
        picture.save(os.path.join(workdir, names[-1]))
    listing = os.path.join(workdir, 'labels.txt')
    with open(listing, 'w', encoding='utf-8') as stream:
        stream.write(''.join(f'{name} {i * 3}\n'
                             for i, name in enumerate(names)))
    return names, listing


def _zip(workdir, name, members):
    import zipfile
    path = os.path.join(workdir, name)
    with zipfile.ZipFile(path, 'w') as archive:
        for member in members:
            archive.write(os.path.join(workdir, member), member)
    return path


def image_run(chainer, inputs, workdir):
    """The image datasets over PNG files written here."""
    D = chainer.datasets
    names, listing = _write_images(inputs, workdir)
    zips = [_zip(workdir, f'images{i}.zip', names[i:] + names[:i])
            for i in range(2)]
    datasets = {
        'image': D.ImageDataset(names, root=workdir),
        'image_uint8': D.ImageDataset(names[:2], root=workdir,
                                      dtype=numpy.uint8),
        'labeled': D.LabeledImageDataset(listing, root=workdir),
        'labeled_pairs': D.LabeledImageDataset(
            [(name, i) for i, name in enumerate(names)], root=workdir,
            label_dtype=numpy.int64),
        'zipped': D.ZippedImageDataset(zips[0]),
        'zipped_labeled': D.LabeledZippedImageDataset(zips[0], listing),
        'multi_zipped': D.MultiZippedImageDataset(zips),
    }
    results = {}
    for name, dataset in datasets.items():
        _walk(results, f'datasets/{name}', dataset)
    return results


def tabular_run(chainer, inputs):
    """``chainer.dataset.tabular``: from_data, slices, transforms,
    concat, join and the output modes."""
    tabular = chainer.dataset.tabular
    x, t = inputs['x'], inputs['t']
    base = tabular.from_data((('x', x), ('t', t)))
    other = tabular.from_data({'y': x[:, 0] * 3})
    datasets = {
        'base': base,
        'array': tabular.from_data(t),
        'dict': tabular.from_data({'a': t, 'b': list(range(7))}),
        'callable': tabular.from_data(('c', lambda i: i * i), size=7),
        'slice_rows': base.slice[1:6:2],
        'slice_list': base.slice[[5, 0, 3], 't'],
        'slice_columns': base.slice[:, ('t', 'x')],
        'slice_bool': base.slice[numpy.array([True, False] * 3 + [True])],
        'transform': base.transform(
            ('s', 'u'), lambda x, t: (x.sum(), -t)),
        'transform_batch': base.transform_batch(
            ('m',), lambda x, t: (x.mean(axis=1),)),
        'concat': tabular.from_data((('x', x[:2]), ('t', t[:2]))).concat(
            base.slice[3:5]),
        'join': base.join(other),
        'as_tuple': base.join(other).astuple(),
        'as_dict': base.asdict(),
        'one_column': base.slice[:, 't'],
        'column_index': base.slice[::-2, (1,)],
        'slice_of_slice': base.slice[1:].slice[[4, 0], ('x',)],
        'transform_dict': base.transform(
            ('d',), lambda x, t: {'d': x[:1] - 1}),
        'transform_single': base.slice[:, 't'].transform(
            ('n',), lambda t: -t),
        'converted': base.with_converter(lambda x, t: (x * 2, t)),
        'str_key_tuple': base.transform('n', lambda x, t: (-t,)),
        'str_key_dict': base.transform('n', lambda x, t: {'n': x - 1}),
        'str_key_batch': base.transform_batch('n', lambda x, t: x[:, 0]),
    }
    results = {}
    for name, dataset in datasets.items():
        prefix = f'datasets/tabular/{name}'
        results[f'{prefix}/keys'] = numpy.array(dataset.keys)
        results[f'{prefix}/mode'] = numpy.str_(
            dataset.mode.__name__ if dataset.mode else 'None')
        _walk(results, prefix, dataset)
        _put(results, f'{prefix}/fetch', dataset.fetch())
        _put(results, f'{prefix}/get_examples', dataset.get_examples(
            [0, 1], None))
        _put(results, f'{prefix}/converted', dataset.convert(
            dataset.fetch()))
    return results


def evaluate(chainer, inputs, workdir):
    """Every scenario's arrays, with the files the serializers save."""
    results = save_files(chainer, inputs, workdir)
    files = {key[len('files/'):]: value for key, value in results.items()
             if key.startswith('files/')}
    results.update(load_files(chainer, files, workdir))
    results.update(dictionary_run(chainer, inputs))
    results.update(error_run(chainer, workdir))
    results.update(split_run(chainer, inputs))
    results.update(container_run(chainer, inputs))
    results.update(file_run(chainer, inputs, workdir))
    results.update(image_run(chainer, inputs, workdir))
    results.update(tabular_run(chainer, inputs))
    return results
