#!/usr/bin/env python3
"""Reference values of typeflow's attention_decoder (include/typeflow/rnn/seq2seq.hpp),
computed independently in plain Python (double precision, no numpy or PyTorch: neither is
installed here), for tests/rnn/attention_reference.hpp.

Run:  /usr/bin/python3 benchmarks/rnn/reference_attention_decoder.py > tests/rnn/attention_reference.hpp

The setting of benchmarks/rnn/reference_cells.py: every weight is
    weight(name, k) = 0.5 * sin(0.37 * k + 0.1 * (sum of the name's bytes mod 100))
of the variable's TensorFlow name and flat (row-major) index in TensorFlow's layout; decoder
inputs x[t][b][d] = sin(0.9 * (t*B*D + b*D + d) + 0.2), h0[b][j] = 0.3 * cos(b*H + j),
c0[b][j] = 0.2 * sin(b*H + j + 1). Attention states
    att[b][l][a] = 0.7 * cos(0.5 * (b*L*A + l*A + a) + 0.3),  B 2, L 3, A 5.
Batch 2, decoder depth 3, 4 units, double.

The decoder follows TensorFlow 1.x's legacy_seq2seq.attention_decoder as written there:
the hidden features are a 1x1 conv2d (NHWC, HWIO, stride 1, written out as loops) of the
states reshaped to [B, L, 1, A] by AttnW_a [1, 1, A, A]; the attention is softmax(sum(v * tanh(features +
y)), [2, 3]) with y = _linear(query) reshaped [B, 1, 1, A]; the read is sum(p * hidden,
[1, 2]); the cell's input _linear([inp] + attns), the output _linear([cell_output] + attns)
under AttnOutputProjection.

Cases:
- gru2: GRUCell(4), 2 steps, num_heads 2, output_size 6, from h0, zero first attentions.
- lstm1: BasicLSTMCell(4) (forget_bias 1), 2 steps, num_heads 1, output_size None (4),
  from (c0, h0), initial_state_attention=True (the query is concat(c, h)).
"""
import math

B, D, H, L, A, T = 2, 3, 4, 3, 5, 2
SCOPE = "attention_decoder"

# Tensors are nested lists; a matrix is a list of rows.


def weight(name, shape):
    s = sum(name.encode()) % 100
    n = 1
    for d in shape:
        n *= d
    flat = [0.5 * math.sin(0.37 * k + 0.1 * s) for k in range(n)]
    return reshape(flat, shape)


def reshape(flat, shape):
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0]
    return [reshape(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def inputs():
    return [[[math.sin(0.9 * (t * B * D + b * D + d) + 0.2) for d in range(D)] for b in range(B)] for t in range(T)]


def h0():
    return [[0.3 * math.cos(b * H + j) for j in range(H)] for b in range(B)]


def c0():
    return [[0.2 * math.sin(b * H + j + 1) for j in range(H)] for b in range(B)]


def attention_states():
    return [[[0.7 * math.cos(0.5 * (b * L * A + l * A + a) + 0.3) for a in range(A)] for l in range(L)]
            for b in range(B)]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def cat(rows_list):
    return [sum((m[b] for m in rows_list), []) for b in range(B)]


def linear(scope, args, out):
    x = cat(args)
    n = len(x[0])
    k = weight(f"{scope}/kernel", (n, out))
    bias = weight(f"{scope}/bias", (out,))
    return [[sum(x[b][i] * k[i][j] for i in range(n)) + bias[j] for j in range(out)] for b in range(B)]


def gru(x, state):
    (h,) = state
    scope = f"{SCOPE}/gru_cell"
    value = [[sigmoid(z) for z in row] for row in linear(f"{scope}/gates", [x, h], 2 * H)]
    r = [row[:H] for row in value]
    u = [row[H:] for row in value]
    rh = [[r[b][j] * h[b][j] for j in range(H)] for b in range(B)]
    c = [[math.tanh(z) for z in row] for row in linear(f"{scope}/candidate", [x, rh], H)]
    new_h = [[u[b][j] * h[b][j] + (1 - u[b][j]) * c[b][j] for j in range(H)] for b in range(B)]
    return new_h, (new_h,)


def basic_lstm(x, state):
    c, h = state
    z = linear(f"{SCOPE}/basic_lstm_cell", [x, h], 4 * H)
    new_c = [[c[b][j] * sigmoid(z[b][2 * H + j] + 1.0) + sigmoid(z[b][j]) * math.tanh(z[b][H + j]) for j in range(H)]
             for b in range(B)]
    new_h = [[math.tanh(new_c[b][j]) * sigmoid(z[b][3 * H + j]) for j in range(H)] for b in range(B)]
    return new_h, (new_c, new_h)


def attention_decoder(cell, state, num_heads, output_size, initial_state_attention):
    att = attention_states()
    hidden = [[[att[b][l]] for l in range(L)] for b in range(B)]  # [B, L, 1, A], NHWC
    features, v = [], []
    for a in range(num_heads):
        k = weight(f"{SCOPE}/AttnW_{a}", (1, 1, A, A))           # HWIO
        # conv2d(hidden, k, strides [1, 1, 1, 1], "SAME") with a 1x1 kernel
        features.append([[[[sum(hidden[b][l][0][i] * k[0][0][i][o] for i in range(A)) for o in range(A)]]
                          for l in range(L)] for b in range(B)])
        v.append(weight(f"{SCOPE}/AttnV_{a}", (A,)))

    def attention(query):
        q = cat(query)
        ds = []
        for a in range(num_heads):
            y = linear(f"{SCOPE}/Attention_{a}", [q], A)          # reshaped [B, 1, 1, A]
            s = [[sum(v[a][o] * math.tanh(features[a][b][l][0][o] + y[b][o]) for o in range(A)) for l in range(L)]
                 for b in range(B)]
            p = []
            for b in range(B):
                m = max(s[b])
                e = [math.exp(x - m) for x in s[b]]
                p.append([x / sum(e) for x in e])
            ds.append([[sum(p[b][l] * hidden[b][l][0][o] for l in range(L)) for o in range(A)] for b in range(B)])
        return ds

    attns = attention(state) if initial_state_attention else [[[0.0] * A for _ in range(B)] for _ in range(num_heads)]
    outputs = []
    for inp in inputs():
        x = linear(SCOPE, [inp] + attns, D)
        cell_output, state = cell(x, state)
        attns = attention(state)
        outputs.append(linear(f"{SCOPE}/AttnOutputProjection", [cell_output] + attns, output_size))
    return outputs, state


def emit(name, values):
    flat = [f"{v:.17g}" for m in values for row in m for v in row]
    print(f"inline constexpr double {name}[] = {{")
    for i in range(0, len(flat), 4):
        print("    " + ", ".join(flat[i:i + 4]) + ",")
    print("};")


print("// Generated by benchmarks/rnn/reference_attention_decoder.py (plain Python, double): reference")
print("// values of attention_decoder; see the script for the setting. Do not edit.")
print("#pragma once\n")
print("namespace attention_reference {\n")
outs, state = attention_decoder(gru, (h0(),), 2, 6, False)
emit("gru2_outputs", outs)
emit("gru2_state", state)
outs, state = attention_decoder(basic_lstm, (c0(), h0()), 1, H, True)
emit("lstm1_outputs", outs)
emit("lstm1_state", state)
print("\n}  // namespace attention_reference")
