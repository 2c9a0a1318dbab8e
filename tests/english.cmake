# Included by CTest before any test runs (tests/CMakeLists.txt names it in
# TEST_INCLUDE_FILES): every test sees gpulab in English, whatever language
# the developer's environment asks for, since the goldens are English. The
# tests of languages (tests/i18n) set LANGUAGE themselves, per command.
set(ENV{LANGUAGE} en)
