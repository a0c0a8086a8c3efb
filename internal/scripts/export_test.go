package scripts

// Close releases the script Prepare opened, for the external tests that
// prepare a run only to see Prepare accept it. The server never needs it:
// it runs every run it prepares, and Runs.Run closes the script.
func (p *Prepared) Close() error {
	if p.file == nil {
		return nil
	}
	err := p.file.Close()
	p.file = nil
	return err
}
