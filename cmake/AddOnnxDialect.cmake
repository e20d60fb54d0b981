# Helpers shared by the project's CMakeLists.

# add_onnx_dialect_library(name SOURCES... [NO_MLIR] [DEPENDS targets...]
#                          [LINK_LIBS libs...] [MLIR_LIBS libs...])
# A shared library of the project, installed and exported for find_package.
# LINK_LIBS are the project's libraries it uses; MLIR_LIBS the MLIR libraries
# its sources use (MLIRIR, MLIRLinalgDialect, ..., as upstream's
# add_mlir_library lists them), linked through mlir_target_link_libraries:
# that is libMLIR.so when MLIR_LINK_MLIR_DYLIB is on (the default, see the
# top-level CMakeLists.txt). Every library but NO_MLIR ones (the runtime)
# also links libLLVM.so.
function(add_onnx_dialect_library name)
  cmake_parse_arguments(ARG "NO_MLIR" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_library(${name} SHARED ${ARG_UNPARSED_ARGUMENTS})
  add_library(OnnxDialect::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  if(NOT ARG_NO_MLIR)
    if(NOT ARG_MLIR_LIBS)
      message(FATAL_ERROR "${name}: list the MLIR libraries it uses (MLIR_LIBS)")
    endif()
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
    target_link_libraries(${name} PUBLIC LLVM)
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${ONNX_DIALECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${ONNX_DIALECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_target_properties(${name} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${ONNX_DIALECT_BINARY_DIR}/lib
    INSTALL_RPATH "$ORIGIN:${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} EXPORT OnnxDialectTargets
    LIBRARY DESTINATION lib ARCHIVE DESTINATION lib RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY ONNX_DIALECT_EXPORTS ${name})
endfunction()

# add_onnx_dialect_tool(name SOURCES... [LINK_LIBS libs...])
function(add_onnx_dialect_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} ${ONNX_DIALECT_MLIR_LIBS})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${ONNX_DIALECT_BINARY_DIR}/bin
    INSTALL_RPATH "$ORIGIN/../lib:${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} EXPORT OnnxDialectTargets RUNTIME DESTINATION bin)
endfunction()
