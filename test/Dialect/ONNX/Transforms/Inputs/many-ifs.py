# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# 30 Ifs of different ranks in a row: without a total budget the copies double per If.
lines = ['func.func @many(%c: tensor<i1>, %x0: tensor<*xf32>, %x: tensor<3xf32>, %w: tensor<2x3xf32>) -> tensor<*xf32> {']
prev = '%x0'
for i in range(30):
    lines.append(f'  %z{i} = onnx.If(%c) : (tensor<i1>) -> tensor<*xf32> else_branch {{\n    onnx.yield %w : tensor<2x3xf32>\n  }} then_branch {{\n    onnx.yield %x : tensor<3xf32>\n  }}')
    lines.append(f'  %s{i} = onnx.Add({prev}, %z{i}) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>')
    prev = f'%s{i}'
lines.append(f'  %y = onnx.Flatten({prev}) {{axis = 0 : i64}} : (tensor<*xf32>) -> tensor<*xf32>\n  return %y : tensor<*xf32>\n}}')
open(__import__('sys').argv[1], 'w').write('\n'.join(lines)+'\n')
