"""Optimizer runs of the differential suite, for any Chainer-like API: run
by ``test_optimizers.py`` with Kusari and by ``oracle_optimizers.py`` with
Chainer.

Every case builds the same two-Linear Chain from the shared inputs, runs
STEPS updates (fixed gradients and ``update()``, or a fixed loss and
``update(lossfun, x, s)``) and records the parameters, the optimizer's
state serialized by ``DictionarySerializer`` (key names included) and
per-step read-only values. Only NumPy is imported here.
"""
import warnings

import numpy

STEPS = 6
MID = 3  # the step of the mid-run snapshot
SHAPES = {'l1/W': (3, 4), 'l1/b': (3,), 'l2/W': (2, 3), 'l2/b': (2,)}
BATCH = 5

# name: (optimizer class, keyword arguments, options). Options:
#   dtype: 'float64' (default), 'float32' or 'float16';
#   loss: True to update through ``update(lossfun, ...)``;
#   hooks: [(hook class, args, kwargs, timing)] (a 'noise' argument is
#       the deterministic NOISE function);
#   rule_hooks: {param path: hooks (as above)} added to update rules;
#   rule_lr: {param path: lr} per-parameter overrides of the ``lr``-like
#       hyperparameter named by ``rate`` (default 'lr');
#   disabled: param paths whose update_rule is disabled;
#   new_epoch: call ``new_epoch()`` after every other step;
#   fp32: ``use_fp32_update()``;
#   scaling: kwargs of ``loss_scaling`` (implies loss);
#   overflow: the step whose loss gradient overflows;
#   observe: names of optimizer attributes read after every step;
#   rule_observe: {param path: names} of update-rule attributes too;
#   shift: {step: {name: value}} optimizer attributes set before a step;
#   grads: with scaling, update from fixed gradients (the overflow step's
#       gradient of l1/W holds inf).
F32, F16 = 'float32', 'float16'
ADAM_VARIANTS = ('Adam', 'AdamW', 'AMSGrad', 'AdaBound', 'AMSBound')
ALL = ('AdaDelta', 'AdaGrad', 'CorrectedMomentumSGD', 'MomentumSGD',
       'NesterovAG', 'MSVAG', 'RMSprop', 'RMSpropGraves', 'SGD',
       'SMORMS3') + ADAM_VARIANTS
CASES = {}
for _name in ALL:
    _observe = ('alpha_t',) if _name in ADAM_VARIANTS else ('lr',)
    if _name == 'AdaDelta':
        _observe = ()
    CASES[f'{_name}_default'] = (_name, {}, {'observe': _observe})
    CASES[f'{_name}_f32'] = (_name, {}, {'dtype': F32, 'observe': _observe})
    CASES[f'{_name}_loss'] = (_name, {}, {'loss': True})
CASES.update({
    # --- non-default hyperparameters -----------------------------------
    'AdaDelta_rho_eps': ('AdaDelta', {'rho': 0.8, 'eps': 1e-3}, {}),
    'AdaGrad_lr_eps': ('AdaGrad', {'lr': 0.05, 'eps': 1e-4}, {}),
    'Adam_weight_decay': ('Adam', {'alpha': 0.01, 'weight_decay_rate': 0.1,
                                   'eta': 0.5}, {'observe': ('alpha_t',)}),
    'Adam_amsgrad': ('Adam', {'alpha': 0.01, 'beta1': 0.8, 'beta2': 0.9,
                              'amsgrad': True}, {}),
    'Adam_adabound': ('Adam', {'alpha': 0.01, 'adabound': True,
                               'final_lr': 0.05, 'gamma': 0.1}, {}),
    'Adam_amsbound_f32': ('Adam', {'alpha': 0.02, 'adabound': True,
                                   'amsgrad': True, 'final_lr': 0.3,
                                   'gamma': 0.5, 'eps': 1e-4},
                          {'dtype': F32}),
    'AdamW_decay': ('AdamW', {'alpha': 0.01, 'weight_decay_rate': 0.05,
                              'eta': 2.0}, {}),
    'AMSGrad_eta': ('AMSGrad', {'alpha': 0.005, 'eta': 0.5}, {}),
    'AdaBound_final': ('AdaBound', {'alpha': 0.01, 'final_lr': 0.02,
                                    'gamma': 0.2}, {}),
    'AMSBound_final': ('AMSBound', {'alpha': 0.01, 'final_lr': 0.02,
                                    'gamma': 0.2, 'beta1': 0.5}, {}),
    'CorrectedMomentumSGD_lr': ('CorrectedMomentumSGD', {
        'lr': 0.05, 'momentum': 0.5}, {}),
    'MomentumSGD_lr': ('MomentumSGD', {'lr': 0.05, 'momentum': 0.7}, {}),
    'NesterovAG_lr': ('NesterovAG', {'lr': 0.05, 'momentum': 0.5}, {}),
    'MSVAG_beta': ('MSVAG', {'lr': 0.05, 'beta': 0.5, 'eta': 0.5,
                             'weight_decay_rate': 0.1}, {}),
    'RMSprop_eps_inside_sqrt': ('RMSprop', {
        'lr': 0.02, 'alpha': 0.9, 'eps': 1e-3, 'eps_inside_sqrt': True}, {}),
    'RMSprop_alpha': ('RMSprop', {'lr': 0.02, 'alpha': 0.5, 'eps': 1e-3},
                      {'dtype': F32}),
    'RMSpropGraves_momentum': ('RMSpropGraves', {
        'lr': 0.01, 'alpha': 0.8, 'momentum': 0.5, 'eps': 1e-3}, {}),
    'SGD_lr': ('SGD', {'lr': 0.3}, {'dtype': F32}),
    'SMORMS3_lr': ('SMORMS3', {'lr': 0.01, 'eps': 1e-4}, {}),
    # --- hooks ----------------------------------------------------------
    'hook_weight_decay': ('MomentumSGD', {}, {'hooks': [
        ('WeightDecay', (0.1,), {}, 'pre')]}),
    'hook_weight_decay_post': ('SGD', {'lr': 0.1}, {'hooks': [
        ('WeightDecay', (0.1,), {}, 'post')]}),
    'hook_lasso': ('Adam', {}, {'hooks': [('Lasso', (0.01,), {}, 'pre')]}),
    'hook_lasso_post': ('SGD', {}, {'hooks': [
        ('Lasso', (0.05,), {}, 'post')]}),
    'hook_clipping': ('SGD', {'lr': 0.1}, {'hooks': [
        ('GradientClipping', (0.5,), {}, 'pre')]}),
    'hook_clipping_f32': ('MomentumSGD', {}, {'dtype': F32, 'hooks': [
        ('GradientClipping', (0.5,), {}, 'pre')]}),
    'hook_hard_clipping': ('MomentumSGD', {}, {'hooks': [
        ('GradientHardClipping', (-0.3, 0.2), {}, 'pre')]}),
    'hook_hard_clipping_post': ('SGD', {}, {'hooks': [
        ('GradientHardClipping', (-0.3, 0.2), {}, 'post')]}),
    'hook_lars': ('MomentumSGD', {}, {'hooks': [
        ('GradientLARS', (), {'threshold': 0.5, 'weight_decay': 0.01,
                              'eps': 1e-6}, 'pre')]}),
    'hook_noise': ('SGD', {'lr': 0.1}, {'hooks': [
        ('GradientNoise', (0.3,), {'noise_func': 'noise'}, 'pre')]}),
    'hook_many': ('Adam', {'alpha': 0.01}, {'loss': True, 'hooks': [
        ('WeightDecay', (0.01,), {}, 'pre'),
        ('GradientClipping', (1.0,), {}, 'pre'),
        ('GradientHardClipping', (-0.5, 0.5), {}, 'post')]}),
    'hook_auto_timing': ('MomentumSGD', {}, {'hooks': [
        (hook, args, kwargs, 'auto') for hook, args, kwargs in (
            ('WeightDecay', (0.05,), {}), ('Lasso', (0.01,), {}),
            ('GradientClipping', (2.0,), {}),
            ('GradientHardClipping', (-0.4, 0.4), {}),
            ('GradientLARS', (), {}),
            ('GradientNoise', (0.1,), {'noise_func': 'noise'}))]}),
    'hook_noise_f16': ('SGD', {'lr': 0.1}, {'dtype': F16, 'fp32': True,
                                            'hooks': [('GradientNoise', (
                                                0.3,), {'noise_func':
                                                        'noise'}, 'pre')]}),
    'hook_clipping_f16': ('Adam', {'alpha': 0.01}, {
        'dtype': F16, 'fp32': True, 'loss': True, 'hooks': [
            ('GradientClipping', (0.3,), {}, 'pre'),
            ('Lasso', (0.01,), {}, 'post')]}),
    'hook_clipping_f16_plain': ('MomentumSGD', {}, {
        'dtype': F16, 'hooks': [('GradientClipping', (0.3,), {}, 'pre'),
                                ('WeightDecay', (0.01,), {}, 'pre')]}),
    'hook_lars_f32': ('SGD', {'lr': 0.2}, {'dtype': F32, 'hooks': [
        ('GradientLARS', (), {'threshold': 0.01, 'weight_decay': 0.1},
         'post')]}),
    'rule_hooks': ('Adam', {'alpha': 0.01}, {'rule_hooks': {
        'l1/W': [('WeightDecay', (0.1,), {}, 'pre'),
                 ('GradientHardClipping', (-0.1, 0.1), {}, 'post')],
        'l2/b': [('Lasso', (0.1,), {}, 'auto')]}}),
    # --- rules: overrides, disabled, epochs -----------------------------
    'rule_momentum_override': ('MomentumSGD', {}, {
        'rate': 'momentum', 'rule_lr': {'l1/b': 0.2}}),
    'rule_eps_override': ('RMSprop', {}, {
        'rate': 'eps', 'rule_lr': {'l2/W': 0.1}, 'loss': True}),
    'rule_adam_lr_observed': ('Adam', {'alpha': 0.01}, {
        'observe': ('alpha_t', 'lr')}),
    'rule_observe': ('Adam', {'alpha': 0.01}, {
        'rule_observe': {'l1/W': ('alpha_t', 'lr', 't')},
        'disabled': ('l2/W',)}),
    'shift_lr': ('MomentumSGD', {}, {'shift': {2: {'lr': 0.05}, 4: {
        'lr': 0.2, 'momentum': 0.5}}, 'rule_lr': {'l2/b': 0.001},
        'observe': ('lr', 'momentum')}),
    'shift_alpha_adabound': ('AdaBound', {'alpha': 0.01, 'gamma': 0.1}, {
        'shift': {2: {'alpha': 0.05}, 4: {'final_lr': 0.5}},
        'observe': ('alpha_t', 'final_lr')}),
    'shift_alpha_at_start': ('AMSBound', {'alpha': 0.01, 'gamma': 0.1}, {
        'shift': {0: {'alpha': 0.02}}, 'observe': ('alpha_t',)}),
    'shift_eta_adamw': ('AdamW', {'weight_decay_rate': 0.1}, {
        'shift': {3: {'eta': 0.25}}}),
    'rule_disabled_fp32': ('Adam', {}, {
        'dtype': F16, 'fp32': True, 'disabled': ('l2/b',)}),
    'rule_lr_override': ('MomentumSGD', {}, {'rule_lr': {
        'l1/W': 0.5, 'l2/b': 0.001}}),
    'rule_alpha_override': ('Adam', {}, {'rate': 'alpha', 'rule_lr': {
        'l2/W': 0.05}}),
    'rule_disabled': ('Adam', {}, {'disabled': ('l1/b', 'l2/W')}),
    'rule_disabled_sgd': ('SGD', {}, {'loss': True,
                                      'disabled': ('l1/W',)}),
    'new_epoch': ('MomentumSGD', {}, {'new_epoch': True}),
    # --- float16 ----------------------------------------------------------
    'f16_sgd': ('SGD', {}, {'dtype': F16}),
    'f16_momentum': ('MomentumSGD', {}, {'dtype': F16}),
    'f16_adam': ('Adam', {'alpha': 0.01}, {'dtype': F16}),
    'f16_adam_tiny_eps': ('Adam', {'eps': 1e-60}, {'dtype': F16}),
    'f16_rmsprop': ('RMSprop', {'eps': 1e-4}, {'dtype': F16}),
    'f16_adagrad': ('AdaGrad', {}, {'dtype': F16, 'loss': True}),
    'f16_fp32_update_adam': ('Adam', {'alpha': 0.01}, {
        'dtype': F16, 'fp32': True}),
    'f16_fp32_update_momentum': ('MomentumSGD', {}, {
        'dtype': F16, 'fp32': True, 'loss': True}),
    # --- loss scaling -----------------------------------------------------
    'scaling_static': ('SGD', {}, {'dtype': F32, 'scaling': {
        'scale': 64.0}}),
    'scaling_static_f16': ('MomentumSGD', {}, {
        'dtype': F16, 'fp32': True, 'scaling': {'scale': 128.0}}),
    'scaling_dynamic': ('Adam', {'alpha': 0.01}, {
        'dtype': F32, 'scaling': {'interval': 2}}),
    'scaling_dynamic_overflow': ('MomentumSGD', {}, {
        'dtype': F32, 'scaling': {'interval': 1}, 'overflow': 3}),
    'scaling_dynamic_overflow_f16': ('Adam', {'alpha': 0.01}, {
        'dtype': F16, 'fp32': True, 'scaling': {'interval': 2},
        'overflow': 2}),
    'scaling_dynamic_grads_overflow': ('SGD', {}, {
        'scaling': {'interval': 3}, 'grads': True, 'overflow': 2}),
    'scaling_static_overflow': ('SGD', {}, {
        'dtype': F32, 'scaling': {'scale': 2.0}, 'overflow': 2}),
})

# Cases kept out of the compared set: case -> reason; 'resumed/<case>'
# keeps only the resumption of Chainer's mid-run snapshot out.
_BETA_POWER = ('Chainer 7.8.1 bug: MSVAGRule keeps beta ** t in an '
               'attribute it does not serialize, so a resumed run restarts '
               'the bias correction at t = 1 while t goes on; Kusari uses '
               'beta ** t and resumes exactly')
KNOWN_DIFFERENCES = {f'resumed/MSVAG_{variant}': _BETA_POWER
                     for variant in ('default', 'f32', 'loss', 'beta')}
KNOWN_DIFFERENCES['f16_adam_tiny_eps'] = (
    "Chainer 7.8.1 bug: AdamRule's check of an eps that rounds to 0 "
    "formats its message with numpy.float32.name and raises "
    'AttributeError; Kusari raises the ValueError meant')

# Entries Kusari's optimizers save beyond Chainer's (last part of the
# key -> reason). Loading skips them where a Chainer snapshot lacks them,
# and Chainer's deserializer never asks for them, so snapshots load both
# ways; every other key must be Chainer's.
EXTRA_KEYS = {
    'initial_alpha': "AdaBound's bounds scale with alpha / initial_alpha; "
    'Chainer resumes with the alpha the new rule was made with',
    'fp32_param': 'the float32 master copy of use_fp32_update; Chainer '
    'resumes from the rounded float16 parameter',
    'loss_scale': 'the dynamic loss scale; Chainer restarts it at 1',
    'loss_scaling_isnan_ever': 'whether dynamic loss scaling has seen an '
    'overflow (doubling or slow growth); Chainer forgets it',
}


def shared_inputs(seed=0):
    """Initial parameters, the gradients and loss inputs of every step,
    drawn once (float64; cases cast them)."""
    rng = numpy.random.RandomState(seed)
    inputs = {f'init/{path}': rng.uniform(-1, 1, shape)
              for path, shape in SHAPES.items()}
    for step in range(STEPS):
        inputs.update({f'grad{step}/{path}': rng.uniform(-1, 1, shape)
                       for path, shape in SHAPES.items()})
        inputs[f'x{step}'] = rng.uniform(-1, 1, (BATCH, 4))
    inputs['t'] = rng.uniform(-1, 1, (BATCH, 2))
    return inputs


def noise(xp, shape, dtype, hook, rule):
    """A deterministic GradientNoise: it depends on the rule's step and
    the hook's ``eta`` as the default noise does."""
    size = int(numpy.prod(shape))
    values = numpy.cos(numpy.arange(size) + rule.t) * hook.eta
    return xp.asarray(values.reshape(shape).astype(dtype))


def _model(chainer, inputs, dtype):
    L = chainer.links

    def linear(prefix):
        W = inputs[f'init/{prefix}/W'].astype(dtype)
        b = inputs[f'init/{prefix}/b'].astype(dtype)
        return L.Linear(W.shape[1], W.shape[0], initialW=W, initial_bias=b)

    model = chainer.Chain()
    # Linear makes parameters of the configured dtype, whatever the
    # dtype of the initial arrays
    with chainer.using_config('dtype', dtype), model.init_scope():
        model.l1 = linear('l1')
        model.l2 = linear('l2')
    return model


def _lossfun(chainer, model, t):
    F = chainer.functions

    def lossfun(x, s):
        y = model.l2(F.tanh(model.l1(x)))
        # ``s`` (0 except at an overflow step) pushes l1.W's gradient
        # past the dtype's range once scaled.
        return F.sum(F.square(y - t)) + F.sum(model.l1.W * s)
    return lossfun


def _params(model):
    return {name.lstrip('/'): param for name, param in model.namedparams()}


def _overflow_value(dtype):
    # finite, but times a loss scale of 2 or more it overflows
    return numpy.finfo(dtype).max * 0.75


def _snapshot(chainer, optimizer, params, prefix=''):
    serializer = chainer.serializers.DictionarySerializer()
    optimizer.serialize(serializer)
    result = {f'{prefix}param/{path}': numpy.array(param.array)
              for path, param in params.items()}
    # copies: the serializer keeps the optimizer's arrays, which later
    # steps update in place
    result.update({f'{prefix}state/{key}': numpy.array(value)
                   for key, value in serializer.target.items()})
    return result


def _resume(chainer, optimizer, params, snapshot):
    """Load a ``mid/...`` snapshot (of either framework) into the
    parameters and the optimizer."""
    for path, param in params.items():
        param.array[...] = snapshot[f'mid/param/{path}']
    prefix = 'mid/state/'
    # copies: the optimizer may take the arrays as its state
    chainer.serializers.NpzDeserializer({
        key[len(prefix):]: numpy.array(value)
        for key, value in snapshot.items()
        if key.startswith(prefix)}).load(optimizer)


def _add_hooks(chainer, owner, hooks):
    for name, args, kwargs, timing in hooks:
        kwargs = {k: noise if v == 'noise' else v
                  for k, v in kwargs.items()}
        hook = getattr(chainer.optimizer_hooks, name)(*args, **kwargs)
        owner.add_hook(hook, timing=timing)


def _shift(optimizer, options, step):
    for attr, value in options.get('shift', {}).get(step, {}).items():
        setattr(optimizer, attr, value)


def _step(optimizer, params, lossfun, inputs, step, dtype, options):
    """One update: by the loss function, or from the fixed gradients."""
    overflow = step == options.get('overflow')
    if options.get('loss') or ('scaling' in options
                               and not options.get('grads')):
        s = dtype.type(_overflow_value(dtype) if overflow else 0)
        optimizer.update(lossfun, inputs[f'x{step}'].astype(dtype), s)
        return
    for path, param in params.items():
        param.grad = inputs[f'grad{step}/{path}'].astype(dtype)
    if overflow:
        params['l1/W'].grad[0, 0] = numpy.inf
    optimizer.update()


def run(chainer, inputs, case, resume=None):
    """The arrays one case records: ``param/<path>``, ``state/<key>``
    (the optimizer's serialized state), ``observed`` (one row per step)
    and ``mid/...``, parameters and state after the first MID steps.
    With ``resume`` (arrays holding ``mid/...`` entries), the run starts
    from that snapshot at step MID instead, and records no ``mid/...``.
    """
    name, kwargs, options = CASES[case]
    dtype = numpy.dtype(options.get('dtype', 'float64'))
    model = _model(chainer, inputs, dtype)
    optimizer = getattr(chainer.optimizers, name)(**kwargs)
    optimizer.setup(model)
    params = _params(model)
    for owner, hooks in [(optimizer, options.get('hooks', ()))] + [
            (params[path].update_rule, hooks)
            for path, hooks in options.get('rule_hooks', {}).items()]:
        _add_hooks(chainer, owner, hooks)
    for path, value in options.get('rule_lr', {}).items():
        setattr(params[path].update_rule.hyperparam,
                options.get('rate', 'lr'), value)
    for path in options.get('disabled', ()):
        params[path].update_rule.enabled = False
    if options.get('fp32'):
        optimizer.use_fp32_update()
    scaling = options.get('scaling')
    if scaling is not None:
        optimizer.loss_scaling(**scaling)
    lossfun = _lossfun(chainer, model, inputs['t'].astype(dtype))
    result, observed = {}, []
    if resume is not None:
        _resume(chainer, optimizer, params, resume)
        for step in range(MID):  # hyperparameters are not serialized
            _shift(optimizer, options, step)
    for step in range(0 if resume is None else MID, STEPS):
        if step == MID and resume is None:
            result.update(_snapshot(chainer, optimizer, params, 'mid/'))
        _shift(optimizer, options, step)
        with warnings.catch_warnings():
            # the warning of a non-finite gradient
            warnings.simplefilter('ignore')
            _step(optimizer, params, lossfun, inputs, step, dtype,
                  options)
        if options.get('new_epoch') and step % 2:
            optimizer.new_epoch()
        row = [optimizer.t, optimizer.epoch]
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # Adam.lr is deprecated
            row += [getattr(optimizer, attr) for attr in options.get(
                'observe', ())]
            row += [getattr(params[path].update_rule, attr)
                    for path, attrs in options.get('rule_observe',
                                                   {}).items()
                    for attr in attrs]
        if scaling is not None:
            row.append(optimizer._loss_scale)
        observed.append(row)
    result.update(_snapshot(chainer, optimizer, params))
    result['observed'] = numpy.array(observed, dtype=numpy.float64)
    return result


def evaluate(chainer, inputs, cases=None):
    """``case/key`` arrays of every case (of ``cases``, all compared
    ones by default); a case that raises records ``case/error``."""
    results = {}
    for case in cases or sorted(set(CASES) - set(KNOWN_DIFFERENCES)):
        try:
            values = run(chainer, inputs, case)
        except Exception as error:  # compared case by case by the test
            values = {'error': numpy.array(
                f'{type(error).__name__}: {error}')}
        results.update({f'{case}/{k}': v for k, v in values.items()})
    return results
