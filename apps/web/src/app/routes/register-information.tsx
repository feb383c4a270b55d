import { useNavigate } from 'react-router';
import { RegisterInformationForm } from '../../features/auth/components/register-information-form';

export function RegisterInformationRoute() {
  const navigate = useNavigate();
  return <RegisterInformationForm onBackToLogin={() => void navigate('/login')} />;
}
