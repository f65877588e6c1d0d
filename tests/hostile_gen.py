#!/usr/bin/env python3
"""Writes malformed models, .npy files and option lists for tests/test_hostile.sh.

    tests/hostile_gen.py DIR

DIR gets the files and DIR/cases.tsv: one case a line, tab-separated:
    name  keyword  subcommand  model  [extra arguments...]
The case passes when `ge SUBCOMMAND MODEL ARGS...` exits nonzero without a
signal and its stderr contains KEYWORD (case-insensitive). ONNX files are
encoded here by hand (protobuf wire format; field numbers from onnx.proto),
so no Python package is needed.
"""
import os
import struct
import sys

# ---------------------------------------------------------------- protobuf


def varint(n):
    n &= (1 << 64) - 1  # negative int64 as ten bytes, as protobuf does
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_int(field, v):
    return varint(field << 3) + varint(v)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return varint(field << 3 | 2) + varint(len(b)) + b


def f_float(field, x):
    return varint(field << 3 | 5) + struct.pack('<f', x)


# ------------------------------------------------------------------- onnx

FLOAT, UINT8, INT8, INT32, INT64, STRING, BOOL = 1, 2, 3, 6, 7, 8, 9
PACK = {FLOAT: '<f', UINT8: '<B', INT32: '<i', INT64: '<q', BOOL: '<B'}


def tensor(name, dtype, dims, values=()):
    t = b''.join(f_int(1, d) for d in dims) + f_int(2, dtype) + f_bytes(8, name)
    if dtype == STRING:
        return t + b''.join(f_bytes(6, v) for v in values)
    return t + f_bytes(9, b''.join(struct.pack(PACK[dtype], v) for v in values))


def value_info(name, dtype, dims):
    shape = b''.join(f_bytes(1, f_bytes(2, d) if isinstance(d, str) else f_int(1, d)) for d in dims or ())
    ttype = f_int(1, dtype) + (f_bytes(2, shape) if dims is not None else b'')
    return f_bytes(1, name) + f_bytes(2, f_bytes(1, ttype))


def attr(name, v, kind=None):
    a = f_bytes(1, name)
    kind = kind or ('i' if isinstance(v, int) else 'f' if isinstance(v, float) else 's' if isinstance(v, str)
                    else 'ints' if isinstance(v, list) else 'g')
    if kind == 'i':
        return a + f_int(3, v) + f_int(20, 2)
    if kind == 'f':
        return a + f_float(2, v) + f_int(20, 1)
    if kind == 's':
        return a + f_bytes(4, v) + f_int(20, 3)
    if kind == 'ints':
        return a + b''.join(f_int(8, x) for x in v) + f_int(20, 7)
    if kind == 'floats':
        return a + b''.join(f_float(7, x) for x in v) + f_int(20, 6)
    if kind == 't':
        return a + f_bytes(5, v) + f_int(20, 4)
    return a + f_bytes(6, v) + f_int(20, 5)  # a graph


def node(op, ins, outs, name=None, **attrs):
    n = b''.join(f_bytes(1, i) for i in ins) + b''.join(f_bytes(2, o) for o in outs)
    n += f_bytes(3, name or (op.lower() + '_' + '_'.join(outs))) + f_bytes(4, op)
    for k, v in attrs.items():
        n += f_bytes(5, attr(k, *v) if isinstance(v, tuple) else attr(k, v))
    return n


def graph(nodes, inputs, outputs, inits=(), infos=(), name='g'):
    g = b''.join(f_bytes(1, n) for n in nodes) + f_bytes(2, name)
    g += b''.join(f_bytes(5, t) for t in inits)
    g += b''.join(f_bytes(11, value_info(*i)) for i in inputs)
    g += b''.join(f_bytes(12, value_info(*o)) for o in outputs)
    g += b''.join(f_bytes(13, value_info(*v)) for v in infos)
    return g


def model(g, opset=13, ir=8):
    return f_int(1, ir) + f_bytes(8, f_bytes(1, '') + f_int(2, opset)) + f_bytes(7, g)


# -------------------------------------------------------------------- npy


def npy(dtype_descr, shape, data=b'', header=None):
    h = header or "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype_descr, ''.join('%d,' % d for d in shape))
    h += ' ' * ((64 - (10 + len(h) + 1) % 64) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + data


# ------------------------------------------------------------------ cases


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []

    def write(name, data):
        path = os.path.join(out, name)
        with open(path, 'wb') as f:
            f.write(data)
        return path

    def case(name, keyword, cmd, mdl, *args):
        cases.append('\t'.join((name, keyword, cmd, mdl) + args))

    X = ('x', FLOAT, ['N', 4])
    Y = ('y', FLOAT, None)
    relu = write('relu.onnx', model(graph([node('Relu', ['x'], ['y'])], [X], [Y])))
    good = write('x_2x4.npy', npy('<f4', (2, 4), struct.pack('<8f', *range(8))))

    # 1. sizes that overflow: .npy shapes, declared dims, shape attributes and constants
    big = write('big.npy', npy('<f4', (4294967296, 4294967296, 1, 1)))
    case('npy_shape_overflow', 'overflows', 'run', relu, '--input', 'x=' + big)
    big2 = write('big2.npy', npy('<f4', (1 << 62, 4)))
    case('npy_bytes_overflow', 'overflows', 'run', relu, '--input', 'x=' + big2)
    huge_in = write('huge_input.onnx', model(graph([node('Relu', ['x'], ['y'])], [('x', FLOAT, [1 << 40, 1 << 40])], [Y])))
    case('declared_dims_overflow', 'overflow', 'run', huge_in)
    huge_info = write('huge_value_info.onnx', model(graph(
        [node('Relu', ['x'], ['t']), node('Relu', ['t'], ['y'])], [X], [Y], infos=[('t', FLOAT, [1 << 40, 1 << 40])])))
    case('value_info_overflow', 'overflow', 'run', huge_info, '--input', 'x=' + good)
    rnd = write('random_normal_huge.onnx', model(graph(
        [node('RandomNormal', [], ['y'], shape=[1 << 40, 1 << 40])], [], [Y])))
    case('random_normal_overflow', 'overflow', 'run', rnd)
    rnd2 = write('random_normal_4tb.onnx', model(graph(
        [node('RandomNormal', [], ['y'], shape=[1 << 20, 1 << 20])], [], [Y])))
    case('random_normal_past_memory', 'memory', 'run', rnd2)
    cos = write('constant_of_shape_huge.onnx', model(graph(
        [node('ConstantOfShape', ['s'], ['y'])], [], [Y], inits=[tensor('s', INT64, [3], [1 << 40, 1 << 40, 1 << 40])])))
    case('constant_of_shape_overflow', 'overflow', 'run', cos)
    resh = write('reshape_huge.onnx', model(graph(
        [node('Reshape', ['x', 's'], ['y'])], [X], [Y], inits=[tensor('s', INT64, [2], [1 << 40, 1 << 40])])))
    case('reshape_constant_overflow', 'reshape', 'run', resh, '--input', 'x=' + good)

    # 2. control-flow inputs of the wrong type
    V = ('v', FLOAT, [2])
    body = graph([node('Identity', ['c_in'], ['c_out']), node('Relu', ['v_in'], ['v_out'])],
                 [('i', INT64, []), ('c_in', BOOL, []), ('v_in', FLOAT, [2])],
                 [('c_out', BOOL, []), ('v_out', FLOAT, [2])], name='body')
    for dt, tag in ((FLOAT, 'float'), (UINT8, 'uint8'), (BOOL, 'bool')):
        m = write('loop_m_%s.onnx' % tag, model(graph(
            [node('Loop', ['M', 'c', 'v'], ['y'], body=body)], [V], [Y],
            inits=[tensor('M', dt, [], [3]), tensor('c', BOOL, [], [1])])))
        v2 = write('v2.npy', npy('<f4', (2,), struct.pack('<2f', 1, -1)))
        case('loop_trip_count_' + tag, 'trip count', 'run', m, '--input', 'v=' + v2)
    m = write('loop_cond_float.onnx', model(graph(
        [node('Loop', ['M', 'c', 'v'], ['y'], body=body)], [V], [Y],
        inits=[tensor('M', INT64, [], [3]), tensor('c', FLOAT, [], [1.0])])))
    case('loop_cond_float', 'condition', 'run', m, '--input', 'v=' + v2)
    then_b = graph([node('Constant', [], ['a'], value=(tensor('a', FLOAT, [1], [1.0]), 't'))], [], [('a', FLOAT, [1])],
                   name='then')
    else_b = graph([node('Constant', [], ['b'], value=(tensor('b', FLOAT, [1], [2.0]), 't')),
                    node('Constant', [], ['b2'], value=(tensor('b2', FLOAT, [1], [3.0]), 't'))], [],
                   [('b', FLOAT, [1]), ('b2', FLOAT, [1])], name='else')
    for dt, tag, val in ((FLOAT, 'float', 1.0), (INT64, 'int64', 1)):
        m = write('if_cond_%s.onnx' % tag, model(graph(
            [node('If', ['c'], ['y'], then_branch=then_b, else_branch=then_b)], [], [Y], inits=[tensor('c', dt, [], [val])])))
        case('if_cond_' + tag, 'condition', 'run', m)
    m = write('if_branch_counts.onnx', model(graph(
        [node('If', ['c'], ['y'], then_branch=then_b, else_branch=else_b)], [], [Y], inits=[tensor('c', BOOL, [], [1])])))
    case('if_branch_output_counts', 'branch', 'run', m)
    sbody = graph([node('Add', ['s_in', 'x_t'], ['s_out']), node('Identity', ['s_out'], ['o'])],
                  [('s_in', FLOAT, [2]), ('x_t', FLOAT, [2])], [('s_out', FLOAT, [2]), ('o', FLOAT, [2])], name='sbody')
    for key in ('scan_input_directions', 'scan_output_directions'):
        m = write('scan_%s.onnx' % key, model(graph(
            [node('Scan', ['s', 'xs'], ['sf', 'y'], body=sbody, num_scan_inputs=1, **{key: [2]})],
            [('xs', FLOAT, [3, 2])], [('sf', FLOAT, None), Y], inits=[tensor('s', FLOAT, [2], [0.0, 0.0])])))
        xs = write('xs.npy', npy('<f4', (3, 2), struct.pack('<6f', *range(6))))
        case('scan_bad_' + key, key, 'run', m, '--input', 'xs=' + xs)

    # 3. a Loop that doubles a tensor 40 times: the memory ceiling, named node
    dbody = graph([node('Identity', ['c_in'], ['c_out']), node('Concat', ['v_in', 'v_in'], ['v_out'], name='grow', axis=0)],
                  [('i', INT64, []), ('c_in', BOOL, []), ('v_in', FLOAT, ['n'])],
                  [('c_out', BOOL, []), ('v_out', FLOAT, ['m'])], name='body')
    m = write('loop_doubling.onnx', model(graph(
        [node('Loop', ['M', 'c', 'v'], ['y'], body=dbody)], [V], [Y],
        inits=[tensor('M', INT64, [], [40]), tensor('c', BOOL, [], [1])])))
    case('loop_doubling_ceiling', 'memory limit', 'run', m, '--input', 'v=' + v2, '--option',
         'ge.graphMemoryMaxSize=268435456')

    # 4. attributes of the wrong type or out of range, arity
    lrelu = write('leaky_relu_alpha_string.onnx', model(graph(
        [node('LeakyRelu', ['x'], ['y'], alpha=('0.5', 's'))], [X], [Y])))
    case('attr_string_for_float', 'alpha', 'run', lrelu, '--input', 'x=' + good)
    tr = write('transpose_perm_float.onnx', model(graph([node('Transpose', ['x'], ['y'], perm=(1.0, 'f'))], [X], [Y])))
    case('attr_float_for_ints', 'perm', 'run', tr, '--input', 'x=' + good)
    red = write('reduce_duplicate_axes.onnx', model(graph(
        [node('ReduceMean', ['x'], ['y'], axes=[1, 1])], [X], [Y])))
    case('reduce_duplicate_axes', 'axes', 'run', red, '--input', 'x=' + good)
    X4 = ('x', FLOAT, [1, 1, 4, 4])
    mp = write('maxpool_storage_order.onnx', model(graph(
        [node('MaxPool', ['x'], ['y'], kernel_shape=[2, 2], storage_order=5)], [X4], [Y])))
    case('maxpool_storage_order', 'storage_order', 'inspect', mp)
    ct = write('convtranspose_output_padding.onnx', model(graph(
        [node('ConvTranspose', ['x', 'w'], ['y'], strides=[2, 2], output_padding=[2, 2])], [X4], [Y],
        inits=[tensor('w', FLOAT, [1, 1, 3, 3], [0.1] * 9)])))
    case('convtranspose_output_padding', 'output_padding', 'inspect', ct)
    r4 = write('relu_four_inputs.onnx', model(graph([node('Relu', ['x', 'x', 'x', 'x'], ['y'])], [X], [Y])))
    case('relu_four_inputs', 'input', 'inspect', r4)
    r3 = write('relu_three_outputs.onnx', model(graph([node('Relu', ['x'], ['y', 'y2', 'y3'])], [X], [Y])))
    case('relu_three_outputs', 'output', 'inspect', r3)

    # 5. models that contradict themselves or are empty
    wrong_t = write('declared_output_dtype.onnx', model(graph([node('Relu', ['x'], ['y'])], [X], [('y', INT64, ['N', 4])])))
    case('declared_output_dtype', 'int64', 'inspect', wrong_t)
    wrong_s = write('declared_output_shape.onnx', model(graph([node('Relu', ['x'], ['y'])], [X], [('y', FLOAT, ['N', 5])])))
    case('declared_output_shape', "'y'", 'inspect', wrong_s)
    for v in (0, -1):
        m = write('opset_%d.onnx' % v, model(graph([node('Relu', ['x'], ['y'])], [X], [Y]), opset=v))
        case('opset_%d' % v, 'opset', 'inspect', m)
    neg = write('negative_dim.onnx', model(graph([node('Relu', ['x'], ['y'])], [('x', FLOAT, [-5, 4])], [Y])))
    case('negative_dim', '-5', 'inspect', neg)
    empty = write('empty_graph.onnx', model(graph([], [], [])))
    case('empty_graph', 'empty', 'inspect', empty)
    no_out = write('no_outputs.onnx', model(graph([node('Relu', ['x'], ['y'])], [X], [])))
    case('no_outputs', 'output', 'inspect', no_out)
    strs = write('string_root.onnx', model(graph([node('Identity', ['s'], ['y'])], [], [('y', STRING, [2])],
                                                   inits=[tensor('s', STRING, [2], [b'a', b'b'])])))
    # string tensors run (the root level is then sized at run time); .npy cannot hold them
    case('string_tensor_root', 'cannot write string values', 'run', strs, '--outdir', os.path.join(out, 'string_out'))
    case('model_is_directory', 'directory', 'run', out)
    case('model_missing', 'no_such_model.onnx', 'run', os.path.join(out, 'no_such_model.onnx'))

    # 6. option values that are empty, zero or absurd
    for kv in ('ge.streamMaxParallelNum=0', 'ge.streamMaxParallelNum=-3', 'ge.streamMaxParallelNum=abc',
               'ge.dynamicBatchSize=', 'ge.dynamicBatchSize=0', 'ge.dynamicBatchSize=-1', 'ge.dynamicBatchSize=abc',
               'ge.dynamicBatchSize=1,,2', 'ge.streamTaskLimit=0', 'ge.exec.static_model_ops_lower_limit=abc',
               'ge.exec.hostSchedulingMaxThreshold=-1', 'ge.topoSortingMode=7', 'ge.engineType=',
               'ge.graphMemoryMaxSize=0', 'ge.graphMemoryMaxSize=12x'):
        key, val = kv.split('=', 1)
        kw = 'tier 2 is empty' if ',,' in val else "'%s'" % val if val else key
        case('option_' + kv.replace('=', '_is_').replace('.', '_').replace(',', '_'), kw,
             'inspect', relu, '--option', kv)

    # 7. .npy files the reader must refuse, each with its own message
    npys = {
        'fortran_spaced': ("{'descr':'<f4','fortran_order' :  True,'shape':(2,4)}", 'fortran'),
        'fortran_dquote': ('{"descr": "<f4", "fortran_order": True, "shape": (2, 4), }', 'fortran'),
        'shape_unclosed': ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4, }", 'not closed'),
        'shape_float': ("{'descr': '<f4', 'fortran_order': False, 'shape': (1.5, 4), }", '1.5'),
        'shape_negative': ("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 4), }", '-2'),
        'structured': ("{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), }", 'structured'),
        'native_order': ("{'descr': '=f4', 'fortran_order': False, 'shape': (2, 4), }", 'native'),
        'big_endian': ("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 4), }", 'big-endian'),
        'unknown_dtype': ("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 4), }", "'<c8'"),
        'no_shape': ("{'descr': '<f4', 'fortran_order': False, }", 'shape'),
        'not_a_dict': ("['descr', '<f4']", 'dict'),
    }
    for tag, (hdr, kw) in npys.items():
        p = write('bad_%s.npy' % tag, npy('', (), struct.pack('<8f', *range(8)), header=hdr))
        case('npy_' + tag, kw, 'run', relu, '--input', 'x=' + p)
    short = write('short.npy', npy('<f4', (2, 4), b'\0' * 12))
    case('npy_data_short', 'shorter', 'run', relu, '--input', 'x=' + short)
    case('npy_is_directory', 'directory', 'run', relu, '--input', 'x=' + out)
    case('npy_bad_magic', 'magic', 'run', relu, '--input', 'x=' + relu)

    # 8. many flags: no fixed limits, every refusal names the culprit
    plugins = []
    for k in range(65):
        plugins += ['--plugin', os.path.join(out, 'no_plugin_%d.so' % k)]
    case('plugins_65', 'no_plugin_0.so', 'inspect', relu, *plugins)
    inputs = []
    for k in range(65):
        inputs += ['--input', 'in%d=%s' % (k, good)]
    case('inputs_65', "'in0'", 'run', relu, *inputs)

    with open(os.path.join(out, 'cases.tsv'), 'w') as f:
        f.write('\n'.join(cases) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
