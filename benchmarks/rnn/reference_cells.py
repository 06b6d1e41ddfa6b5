#!/usr/bin/env python3
"""Reference forward values of typeflow's recurrent cells (include/typeflow/rnn/), computed
independently with PyTorch, for tests/rnn/cells_reference.hpp.

Run:  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 benchmarks/rnn/reference_cells.py > tests/rnn/cells_reference.hpp

Every weight is a deterministic formula of the variable's TensorFlow name and the element's
flat (row-major) index in TensorFlow's layout, which the C++ tests rebuild
(tests/rnn/rnn_testing.hpp):

    weight(name, k) = 0.5 * sin(0.37 * k + 0.1 * (sum of the name's bytes mod 100))

Inputs x[t][b][d] = sin(0.9 * (t*B*D + b*D + d) + 0.2); the one-step cases start from
h0[b][j] = 0.3 * cos(b*H + j) (an LSTM's c0[b][j] = 0.2 * sin(b*H + j + 1), h0 as above),
the 3-step (static_rnn) cases from the zero state. Batch 2, depth 3, 4 units, double.

How each reference is computed (independently of TensorFlow's code and of typeflow's):
- BasicRNNCell: torch.nn.RNNCell (tanh) with weight_ih = kernel[:D].T, weight_hh =
  kernel[D:].T, bias_ih = bias, bias_hh = 0.
- GRUCell: torch tensor ops following TF's GRUCell formula. torch.nn.GRU/GRUCell are NOT
  used: they apply the reset gate after the hidden matmul (r * (W_hn h + b_hn)), while TF
  applies it to h before the candidate matmul (concat([x, r * h]) @ candidate/kernel), and
  their gate order is (r, z, n).
- BasicLSTMCell (forget_bias 1.0): torch tensor ops following TF's formula
  (i, j, f, o = split(concat([x, h]) @ kernel + bias); new_c = c sigmoid(f + 1) + sigmoid(i)
  tanh(j); new_h = tanh(new_c) sigmoid(o)).
- LSTMCell (forget_bias 1.0): torch.nn.LSTMCell, whose gate order is (i, f, g, o), with the
  kernel's columns reordered from TF's (i, j, f, o) and bias_ih = bias with forget_bias added
  to the f gate, bias_hh = 0; checked here against the formula above too.
- MultiRNNCell of two GRUCells: the GRU formula above, cell 1 fed cell 0's output.
"""
import math

import torch

torch.set_default_dtype(torch.float64)
B, D, H, T = 2, 3, 4, 3
SCOPE = "rnn"


def weight(name, shape):
    s = sum(name.encode()) % 100
    n = 1
    for d in shape:
        n *= d
    vals = [0.5 * math.sin(0.37 * k + 0.1 * s) for k in range(n)]
    return torch.tensor(vals).reshape(shape)


def inputs():
    return [torch.tensor([[math.sin(0.9 * (t * B * D + b * D + d) + 0.2) for d in range(D)] for b in range(B)])
            for t in range(T)]


def h0():
    return torch.tensor([[0.3 * math.cos(b * H + j) for j in range(H)] for b in range(B)])


def c0():
    return torch.tensor([[0.2 * math.sin(b * H + j + 1) for j in range(H)] for b in range(B)])


# --- cells: step(x, state) -> (output, state) ------------------------------------------

def basic_rnn(scope, d):
    k = weight(f"{scope}/basic_rnn_cell/kernel", (d + H, H))
    b = weight(f"{scope}/basic_rnn_cell/bias", (H,))
    cell = torch.nn.RNNCell(d, H, nonlinearity="tanh")
    with torch.no_grad():
        cell.weight_ih.copy_(k[:d].T)
        cell.weight_hh.copy_(k[d:].T)
        cell.bias_ih.copy_(b)
        cell.bias_hh.zero_()

    def step(x, h):
        with torch.no_grad():
            n = cell(x, h)
        return n, n
    return step


def gru(scope, d):
    p = f"{scope}/gru_cell"
    gk = weight(f"{p}/gates/kernel", (d + H, 2 * H))
    gb = weight(f"{p}/gates/bias", (2 * H,))
    ck = weight(f"{p}/candidate/kernel", (d + H, H))
    cb = weight(f"{p}/candidate/bias", (H,))

    def step(x, h):
        value = torch.sigmoid(torch.cat([x, h], 1) @ gk + gb)
        r, u = value[:, :H], value[:, H:]
        c = torch.tanh(torch.cat([x, r * h], 1) @ ck + cb)
        n = u * h + (1 - u) * c
        return n, n
    return step


def lstm_formula(k, b, forget_bias):
    def step(x, state):
        c, h = state
        m = torch.cat([x, h], 1) @ k + b
        i, j, f, o = m[:, :H], m[:, H:2 * H], m[:, 2 * H:3 * H], m[:, 3 * H:]
        nc = c * torch.sigmoid(f + forget_bias) + torch.sigmoid(i) * torch.tanh(j)
        nh = torch.tanh(nc) * torch.sigmoid(o)
        return nh, (nc, nh)
    return step


def basic_lstm(scope, d):
    p = f"{scope}/basic_lstm_cell"
    return lstm_formula(weight(f"{p}/kernel", (d + H, 4 * H)), weight(f"{p}/bias", (4 * H,)), 1.0)


def lstm(scope, d):
    p = f"{scope}/lstm_cell"
    k = weight(f"{p}/kernel", (d + H, 4 * H))
    b = weight(f"{p}/bias", (4 * H,))
    ki, kj, kf, ko = k[:, :H], k[:, H:2 * H], k[:, 2 * H:3 * H], k[:, 3 * H:]
    bi, bj, bf, bo = b[:H], b[H:2 * H], b[2 * H:3 * H], b[3 * H:]
    torch_k = torch.cat([ki, kf, kj, ko], 1)  # torch's order: i, f, g, o
    cell = torch.nn.LSTMCell(d, H)
    with torch.no_grad():
        cell.weight_ih.copy_(torch_k[:d].T)
        cell.weight_hh.copy_(torch_k[d:].T)
        cell.bias_ih.copy_(torch.cat([bi, bf + 1.0, bj, bo]))
        cell.bias_hh.zero_()
    formula = lstm_formula(k, b, 1.0)

    def step(x, state):
        with torch.no_grad():
            nh, nc = cell(x, (state[1], state[0]))
        fh, (fc, _) = formula(x, state)
        assert torch.allclose(nh, fh, atol=1e-12) and torch.allclose(nc, fc, atol=1e-12)
        return nh, (nc, nh)
    return step


def multi_gru(scope, d):
    c0_ = gru(f"{scope}/multi_rnn_cell/cell_0", d)
    c1_ = gru(f"{scope}/multi_rnn_cell/cell_1", H)

    def step(x, state):
        o0, s0 = c0_(x, state[0])
        o1, s1 = c1_(o0, state[1])
        return o1, (s0, s1)
    return step


def flat(state):
    if isinstance(state, tuple):
        out = []
        for s in state:
            out += flat(s)
        return out
    return [state]


def emit(name, tensors):
    vals = []
    for t in tensors:
        vals += [float(v) for v in t.reshape(-1)]
    body = ",\n    ".join(", ".join(f"{v:.17g}" for v in vals[i:i + 4]) for i in range(0, len(vals), 4))
    print(f"inline constexpr double {name}[{len(vals)}] = {{\n    {body}}};")


def main():
    xs = inputs()
    z = torch.zeros(B, H)
    cases = [
        ("basic_rnn", basic_rnn, h0(), z),
        ("gru", gru, h0(), z),
        ("basic_lstm", basic_lstm, (c0(), h0()), (z, z)),
        ("lstm", lstm, (c0(), h0()), (z, z)),
        ("multi_gru", multi_gru, (h0(), h0()), (z, z)),
    ]
    print("// tests/rnn/cells_reference.hpp — generated by benchmarks/rnn/reference_cells.py (PyTorch "
          f"{torch.__version__}); do not edit.")
    print("// Per cell: <cell>_step_output / <cell>_step_state, one step from (c0,) h0 on x[0];")
    print("// <cell>_rnn_outputs (the 3 steps' outputs, [t][b][j]) / <cell>_rnn_state (final flat state),")
    print("// 3 steps from the zero state. Weights and inputs: see the script.")
    print("#pragma once\n\nnamespace rnn_reference {")
    for name, make, one_state, zero in cases:
        step = make(SCOPE, D)
        o, s = step(xs[0], one_state)
        emit(f"{name}_step_output", [o])
        emit(f"{name}_step_state", flat(s))
        state, outs = zero, []
        for x in xs:
            o, state = step(x, state)
            outs.append(o)
        emit(f"{name}_rnn_outputs", outs)
        emit(f"{name}_rnn_state", flat(state))
    print("}  // namespace rnn_reference")


if __name__ == "__main__":
    main()
